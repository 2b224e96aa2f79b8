// Keeps, of a minified stylesheet (Tailwind's build output), the rules a page's first paint can use:
// style rules with at least one selector whose class names all appear in the page's class
// attributes, every rule without a class (elements, :root, custom properties), and every at-rule
// that holds no style rules (@property, @keyframes, @font-face, @layer statements). At-rules that
// hold style rules (@media, @supports, @layer blocks) are pruned inside and dropped when empty.
// Classes inside :not(...) do not decide (the selector can match without them). No dependency: a
// small brace-aware reader of CSS text, enough for the build's own minified output.

/** The class names of the page's class attributes (HTML entities decoded). */
export function classNamesOf(html) {
  const names = new Set();
  for (const match of html.matchAll(/\sclass="([^"]*)"/g)) {
    const decoded = match[1]
      .replace(/&quot;/g, '"')
      .replace(/&#x27;|&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
    for (const name of decoded.split(/\s+/)) if (name) names.add(name);
  }
  return names;
}

/** Index just past the block that opens at `open` (a '{'), skipping strings and escapes. */
function blockEnd(css, open) {
  let depth = 0;
  for (let index = open; index < css.length; index += 1) {
    const char = css[index];
    if (char === '\\') index += 1;
    else if (char === '"' || char === "'") index = stringEnd(css, index);
    else if (char === '{') depth += 1;
    else if (char === '}' && --depth === 0) return index + 1;
  }
  throw new Error('css-prune: unbalanced braces');
}

function stringEnd(css, start) {
  const quote = css[start];
  for (let index = start + 1; index < css.length; index += 1) {
    if (css[index] === '\\') index += 1;
    else if (css[index] === quote) return index;
  }
  throw new Error('css-prune: unterminated string');
}

/** Splits on top-level occurrences of `separator` (outside (), [] and strings). */
function splitTopLevel(text, separator) {
  const parts = [];
  let depth = 0;
  let from = 0;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (char === '\\') index += 1;
    else if (char === '"' || char === "'") index = stringEnd(text, index);
    else if (char === '(' || char === '[') depth += 1;
    else if (char === ')' || char === ']') depth -= 1;
    else if (char === separator && depth === 0) {
      parts.push(text.slice(from, index));
      from = index + 1;
    }
  }
  parts.push(text.slice(from));
  return parts;
}

function unescapeIdentifier(escaped) {
  return escaped.replace(/\\([0-9a-fA-F]{1,6}\s?|[\s\S])/g, (_, sequence) =>
    /^[0-9a-fA-F]{1,6}\s?$/.test(sequence) ? String.fromCodePoint(Number.parseInt(sequence, 16)) : sequence,
  );
}

/** The class names a selector requires (those inside :not() left out). */
function requiredClasses(selector) {
  const withoutNot = selector.replace(/:not\((?:[^()]|\([^()]*\))*\)/g, '');
  return [...withoutNot.matchAll(/\.((?:\\[0-9a-fA-F]{1,6}\s?|\\[\s\S]|[\w-]|\P{ASCII})+)/gu)].map((match) => unescapeIdentifier(match[1]));
}

/** The rules of `css` that can apply to a page with these class names (see the file's comment). */
export function pruneCss(css, classNames) {
  let output = '';
  let index = 0;
  while (index < css.length) {
    const open = css.indexOf('{', index);
    const semicolon = css.indexOf(';', index);
    if (open < 0) {
      output += css.slice(index);
      break;
    }
    // A statement at-rule (@layer a,b; @import ...;) before the next block: kept.
    if (semicolon >= 0 && semicolon < open && css.slice(index, semicolon).trimStart().startsWith('@')) {
      output += css.slice(index, semicolon + 1);
      index = semicolon + 1;
      continue;
    }
    const prelude = css.slice(index, open);
    const end = blockEnd(css, open);
    const body = css.slice(open + 1, end - 1);
    const trimmed = prelude.trim();
    if (trimmed.startsWith('@')) {
      if (/^@(media|supports|layer|container|scope)\b/.test(trimmed)) {
        const inner = pruneCss(body, classNames);
        if (inner.trim() !== '') output += `${prelude}{${inner}}`;
      } else output += css.slice(index, end);
    } else if (trimmed.startsWith('/*')) {
      // A comment before a rule: keep the comment only if the rule stays (handled with the rule).
      output += pruneRule(prelude, body, classNames);
    } else output += pruneRule(prelude, body, classNames);
    index = end;
  }
  return output;
}

function pruneRule(prelude, body, classNames) {
  const comment = /^(\s*\/\*[\s\S]*?\*\/\s*)/.exec(prelude)?.[1] ?? '';
  const selectors = splitTopLevel(prelude.slice(comment.length), ',');
  const kept = selectors.filter((selector) => requiredClasses(selector).every((name) => classNames.has(name)));
  if (kept.length === 0) return comment;
  return `${comment}${kept.join(',')}{${body}}`;
}
