/** A caller's own raw system prompt wrapped around the compiled memory (SPEC B1.27). */
import { MemoryError } from '../errors.js';

/** The placeholder a template marks the memory's place with. */
export const CORE_MEMORY_PLACEHOLDER = '{CORE_MEMORY}';

/** Far above any real prompt: a bigger template is a mistake (or hostile), not a prompt. */
const MAX_TEMPLATE_CHARS = 1_000_000;

/**
 * The template with every `{CORE_MEMORY}` replaced by the memory, or, when it has none, the memory appended
 * after one blank line. Replacement is literal (a `$&` in the memory stays as written).
 * @example applyPromptTemplate('You are Ada.\n\n{CORE_MEMORY}\n\nBe brief.', memory)
 */
export function applyPromptTemplate(template: string, memory: string): string {
  if (typeof template !== 'string') {
    throw new MemoryError('INVALID_ARGUMENT', 'template must be a string');
  }
  if (template.length > MAX_TEMPLATE_CHARS) {
    throw new MemoryError(
      'INVALID_ARGUMENT',
      `template is ${template.length} characters (at most ${MAX_TEMPLATE_CHARS})`,
    );
  }
  if (template.includes(CORE_MEMORY_PLACEHOLDER)) return template.split(CORE_MEMORY_PLACEHOLDER).join(memory);
  const head = template.replace(/\n+$/, '');
  return head === '' ? memory : `${head}\n\n${memory}`;
}
