#!/usr/bin/env bash
# BENCH FIXTURE: a re-implementation, for the benchmark only, of the pre-commit hook of the system gitmem
# re-implements (its embedded bash hook is not shipped here). Written from that system's description: it
# loops over the staged files calling `git show` per file, as a bash hook does, so its cost is the one a
# raw shell commit pays there. gitmem never installs or runs it outside bench/sections/hook.mjs.
#
# Rules: system/ and reference/ .md files (optional memory/ prefix), added/copied/modified (not renamed, not
# deleted); a flat skills/<name>.md is refused (skills/<name>/SKILL.md is skipped); the first line must be
# `---` and a closing `---` must follow; description required and non-empty; only description, read_only
# and limit keys; read_only: true at HEAD refuses any change; read_only may not be added, changed or
# removed (compared with HEAD). Every problem is collected before failing.

errors=()

frontmatter() { # prints the frontmatter lines of stdin (between the first two --- lines)
  awk 'NR == 1 { next } /^---$/ { exit } { print }'
}

value_of() { # value of key $1 in frontmatter text $2 (first match; indented lines skipped)
  printf '%s\n' "$2" | awk -v k="$1" '
    /^[ \t]/ || $0 == "" { next }
    { i = index($0, ":"); if (i == 0) next; key = substr($0, 1, i - 1); gsub(/ /, "", key)
      if (key == k) { v = substr($0, i + 1); sub(/^[ \t]+/, "", v); sub(/[ \t]+$/, "", v); print v; exit } }'
}

has_key() { # 0 when key $1 is present in frontmatter text $2
  printf '%s\n' "$2" | awk -v k="$1" '
    /^[ \t]/ || $0 == "" { next }
    { i = index($0, ":"); if (i == 0) next; key = substr($0, 1, i - 1); gsub(/ /, "", key); if (key == k) { found = 1; exit } }
    END { exit found ? 0 : 1 }'
}

while IFS= read -r -d '' status && IFS= read -r -d '' path; do
  case "$status" in R*|C*) IFS= read -r -d '' path ;; esac # a rename or copy names its source first
  case "$status" in
    A|C*|M) ;;
    *) continue ;;
  esac
  if [[ "$path" =~ ^(memory/)?skills/[^/]+\.md$ ]]; then
    errors+=("$path: invalid skill path (skills must be folders). Use skills/<name>/SKILL.md")
    continue
  fi
  [[ "$path" =~ ^(memory/)?(system|reference)/.*\.md$ ]] || continue
  [[ "$(basename "$path")" == "SKILL.md" ]] && continue

  staged=$(git show ":$path" 2>/dev/null)
  first=$(printf '%s\n' "$staged" | head -n 1)
  if [[ "$first" != "---" ]]; then
    errors+=("$path: missing frontmatter (must start with ---)")
    continue
  fi
  closing=$(printf '%s\n' "$staged" | tail -n +2 | grep -c '^---$')
  if [[ "$closing" -eq 0 ]]; then
    errors+=("$path: frontmatter opened but never closed (missing closing ---)")
    continue
  fi
  fm=$(printf '%s\n' "$staged" | frontmatter)

  head_fm=""
  in_head=0
  if head_text=$(git show "HEAD:$path" 2>/dev/null) && [[ -n "$head_text" ]]; then
    in_head=1
    head_fm=$(printf '%s\n' "$head_text" | frontmatter)
    if [[ "$(value_of read_only "$head_fm")" == "true" ]]; then
      errors+=("$path: file is read_only and cannot be modified")
      continue
    fi
  fi

  while IFS= read -r line; do
    [[ -z "$line" || "$line" =~ ^[[:space:]] ]] && continue
    key="${line%%:*}"
    key="${key// /}"
    case "$key" in
      description|read_only|limit) ;;
      *) errors+=("$path: unknown frontmatter key '$key' (allowed: description read_only limit)") ;;
    esac
  done <<< "$fm"

  if has_key read_only "$fm"; then
    if [[ $in_head -eq 1 ]]; then
      [[ "$(value_of read_only "$fm")" != "$(value_of read_only "$head_fm")" ]] &&
        errors+=("$path: 'read_only' is a protected field and cannot be changed by the agent")
    else
      errors+=("$path: 'read_only' is a protected field and cannot be set by the agent")
    fi
  fi

  if has_key description "$fm"; then
    [[ -z "$(value_of description "$fm")" ]] && errors+=("$path: 'description' must not be empty")
  else
    errors+=("$path: missing required field 'description'")
  fi

  if [[ $in_head -eq 1 && -n "$(value_of read_only "$head_fm")" ]] && ! has_key read_only "$fm"; then
    errors+=("$path: 'read_only' is a protected field and cannot be removed by the agent")
  fi
done < <(git diff --cached --name-status -z --diff-filter=ACMR -M)

if [[ ${#errors[@]} -gt 0 ]]; then
  echo "Frontmatter validation failed:" >&2
  for e in "${errors[@]}"; do echo "  $e" >&2; done
  exit 1
fi
exit 0
