/**
 * Memory text as HTML, safely: markdown-it with raw HTML off (a `<script>` in memory stays text), images
 * shown as a placeholder (nothing is fetched), then DOMPurify over the result with a short allow-list —
 * links only to http(s), mailto, in-page anchors or other memory files (opened in the palace). This is the
 * page's only HTML sink.
 */
import DOMPurify from 'dompurify';
import MarkdownIt from 'markdown-it';

const md = new MarkdownIt({ html: false, linkify: false, typographer: false });

// An image would be a request to wherever the memory points: show what it is instead.
md.renderer.rules.image = (tokens, idx) => {
  const t = tokens[idx];
  const alt = md.utils.escapeHtml(t?.content ?? '');
  const src = md.utils.escapeHtml(String(t?.attrGet('src') ?? ''));
  return `<span class="md-image" title="${src}">[image: ${alt || 'untitled'}]</span>`;
};

const ALLOWED_TAGS = [
  'a',
  'p',
  'br',
  'hr',
  'em',
  'strong',
  's',
  'del',
  'code',
  'pre',
  'blockquote',
  'ul',
  'ol',
  'li',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'span',
];
// data-mempath, target and rel are set by the hook below, after the allow-list has been applied.
const ALLOWED_ATTR = ['href', 'title', 'class', 'start', 'colspan', 'rowspan'];
const SAFE_LINK = /^(?:https?:|mailto:|#)/i;
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** A relative link in `from` (a memory path) resolved to a memory path, or null when it leaves the tree. */
export function resolveMemoryLink(from: string, href: string): string | null {
  const target = href.split('#')[0]?.split('?')[0] ?? '';
  if (target === '') return null;
  const parts = target.startsWith('/') ? [] : from.split('/').slice(0, -1);
  for (const seg of target.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (parts.length === 0) return null;
      parts.pop();
    } else parts.push(seg);
  }
  try {
    return parts.map((p) => decodeURIComponent(p)).join('/');
  } catch {
    return null;
  }
}

let currentPath = '';
DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.nodeName !== 'A') return;
  const href = node.getAttribute('href') ?? '';
  node.removeAttribute('data-mempath');
  if (href !== '' && !HAS_SCHEME.test(href) && !href.startsWith('#') && !href.startsWith('//')) {
    const target = resolveMemoryLink(currentPath, href);
    node.setAttribute('href', '#');
    if (target) node.setAttribute('data-mempath', target);
    return;
  }
  if (!SAFE_LINK.test(href)) {
    node.removeAttribute('href');
    return;
  }
  if (!href.startsWith('#')) {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer nofollow');
  }
});

/**
 * Sanitised HTML for a markdown text of memory file `path`.
 * @example renderMarkdown('# hi <script>x</script>', 'notes/a.md') // '<h1>hi &lt;script&gt;x&lt;/script&gt;</h1>'
 */
export function renderMarkdown(text: string, path: string): string {
  currentPath = path;
  const raw = md.render(text);
  return DOMPurify.sanitize(raw, { ALLOWED_TAGS, ALLOWED_ATTR, ALLOW_DATA_ATTR: false });
}
