// A small CommonMark subset for the descriptions of the OpenAPI document: headings, paragraphs, fenced
// code, pipe tables, lists, block quotes, inline code, emphasis and links. Every piece of text is
// HTML-escaped; links keep only http(s), mailto, relative and fragment targets.

const ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (char) => ESCAPES[char]);
}

/** The id a heading gets: `section/` and its text with spaces as dashes. */
export function headingId(text) {
  return `section/${text.trim().replace(/\s+/g, '-')}`;
}

/** Headings of a Markdown text, for a table of contents. */
export function markdownHeadings(text) {
  const found = [];
  let fenced = false;
  for (const line of String(text ?? '').split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const match = !fenced && /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (match) found.push({ level: match[1].length, text: match[2], id: headingId(match[2]) });
  }
  return found;
}

function safeUrl(url) {
  const trimmed = url.trim();
  if (/^(https?:|mailto:)/i.test(trimmed) || /^[/#?.]/.test(trimmed)) return trimmed;
  return /^[^:/?#]+(?:[/?#]|$)/.test(trimmed) && !trimmed.includes(':') ? trimmed : null;
}

function closingIndex(text, marker, from) {
  for (let index = text.indexOf(marker, from); index !== -1; index = text.indexOf(marker, index + 1)) {
    if (text[index - 1] !== ' ' && text[index - 1] !== '\\') return index;
  }
  return -1;
}

function link(text, start) {
  let depth = 0;
  for (let index = start; index < text.length; index++) {
    if (text[index] === '[') depth++;
    if (text[index] === ']' && --depth === 0) {
      const target = /^\(([^()\s]+)(?:\s+"[^"]*")?\)/.exec(text.slice(index + 1));
      if (!target) return null;
      return { label: text.slice(start + 1, index), url: target[1], end: index + 1 + target[0].length };
    }
  }
  return null;
}

/** Inline Markdown to HTML. */
export function renderInline(text) {
  let html = '';
  let index = 0;
  while (index < text.length) {
    const char = text[index];
    const rest = text.slice(index);
    if (char === '\\' && /[\\`*_[\]()#+\-.!|<>{}]/.test(text[index + 1] ?? '')) {
      html += escapeHtml(text[index + 1]);
      index += 2;
      continue;
    }
    if (char === '`') {
      const ticks = /^`+/.exec(rest)[0];
      const end = text.indexOf(ticks, index + ticks.length);
      if (end !== -1) {
        const code = text.slice(index + ticks.length, end).replace(/^ (.+) $/, '$1');
        html += `<code>${escapeHtml(code)}</code>`;
        index = end + ticks.length;
        continue;
      }
      html += escapeHtml(ticks);
      index += ticks.length;
      continue;
    }
    if (char === '[') {
      const found = link(text, index);
      if (found) {
        const href = safeUrl(found.url);
        const label = renderInline(found.label);
        html += href === null ? label : `<a href="${escapeHtml(href)}">${label}</a>`;
        index = found.end;
        continue;
      }
    }
    if (char === '<') {
      const auto = /^<(https?:\/\/[^\s<>]+)>/.exec(rest);
      if (auto) {
        html += `<a href="${escapeHtml(auto[1])}">${escapeHtml(auto[1])}</a>`;
        index += auto[0].length;
        continue;
      }
    }
    const strong = /^(\*\*|__)(?=\S)/.exec(rest);
    if (strong && (strong[1] === '**' || !/\w/.test(text[index - 1] ?? ''))) {
      const end = closingIndex(text, strong[1], index + 2);
      if (end > index + 2) {
        html += `<strong>${renderInline(text.slice(index + 2, end))}</strong>`;
        index = end + 2;
        continue;
      }
    }
    const emphasis = /^([*_])(?=\S)/.exec(rest);
    if (emphasis && (emphasis[1] === '*' || !/\w/.test(text[index - 1] ?? ''))) {
      const end = closingIndex(text, emphasis[1], index + 1);
      const after = text[end + 1] ?? '';
      if (end > index + 1 && (emphasis[1] === '*' || !/\w/.test(after))) {
        html += `<em>${renderInline(text.slice(index + 1, end))}</em>`;
        index = end + 1;
        continue;
      }
    }
    html += escapeHtml(char);
    index++;
  }
  return html;
}

const FENCE = /^\s*(```+|~~~+)\s*([\w+-]*)/;
const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const LIST_ITEM = /^(\s*)([-*+]|\d{1,9}[.)])\s+(.*)$/;
const TABLE_RULE = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;
const RULE = /^\s*([-*_])(\s*\1){2,}\s*$/;

function splitRow(line) {
  const cells = [];
  let cell = '';
  let code = false;
  const trimmed = line
    .trim()
    .replace(/^\|/, '')
    .replace(/(?<!\\)\|$/, '');
  for (let index = 0; index < trimmed.length; index++) {
    const char = trimmed[index];
    if (char === '\\' && trimmed[index + 1] === '|') {
      cell += '|';
      index++;
    } else if (char === '`') {
      code = !code;
      cell += char;
    } else if (char === '|' && !code) {
      cells.push(cell.trim());
      cell = '';
    } else cell += char;
  }
  cells.push(cell.trim());
  return cells;
}

function renderTable(lines) {
  const header = splitRow(lines[0]);
  const aligns = splitRow(lines[1]).map((rule) =>
    rule.startsWith(':') && rule.endsWith(':') ? 'center' : rule.endsWith(':') ? 'right' : null,
  );
  const cell = (tag, text, column) => {
    const align = aligns[column] ? ` class="align-${aligns[column]}"` : '';
    return `<${tag}${align}>${renderInline(text ?? '')}</${tag}>`;
  };
  const head = `<tr>${header.map((text, column) => cell('th', text, column)).join('')}</tr>`;
  const body = lines
    .slice(2)
    .map(
      (line) => `<tr>${header.map((_, column) => cell('td', splitRow(line)[column], column)).join('')}</tr>`,
    )
    .join('');
  return `<div class="table-wrap"><table><thead>${head}</thead><tbody>${body}</tbody></table></div>`;
}

function startsBlock(line, next) {
  return (
    FENCE.test(line) ||
    HEADING.test(line) ||
    LIST_ITEM.test(line) ||
    /^\s*>/.test(line) ||
    RULE.test(line) ||
    (line.includes('|') && TABLE_RULE.test(next ?? ''))
  );
}

function renderList(lines, options) {
  const ordered = /\d/.test(LIST_ITEM.exec(lines[0])[2]);
  const indent = LIST_ITEM.exec(lines[0])[1].length;
  const items = [];
  for (const line of lines) {
    const item = LIST_ITEM.exec(line);
    if (item && item[1].length <= indent) items.push([item[3]]);
    else items.at(-1).push(line.replace(new RegExp(`^\\s{0,${indent + 2}}`), ''));
  }
  const loose = lines.some((line, index) => line.trim() === '' && index < lines.length - 1);
  const start = ordered ? Number.parseInt(LIST_ITEM.exec(lines[0])[2], 10) : 1;
  const tag = ordered ? 'ol' : 'ul';
  const open = ordered && start !== 1 ? `<ol start="${start}">` : `<${tag}>`;
  const body = items
    .map((item) => {
      const inner = renderBlocks(item, options);
      return `<li>${loose ? inner : inner.replace(/^<p>([\s\S]*?)<\/p>/, '$1')}</li>`;
    })
    .join('');
  return `${open}${body}</${tag}>`;
}

function renderBlocks(lines, options) {
  const html = [];
  let index = 0;
  while (index < lines.length) {
    const line = lines[index];
    if (line.trim() === '') {
      index++;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const code = [];
      for (index++; index < lines.length && !lines[index].trim().startsWith(fence[1]); index++) {
        code.push(lines[index]);
      }
      index++;
      const language = fence[2] ? ` class="language-${escapeHtml(fence[2])}"` : '';
      html.push(`<pre><code${language}>${escapeHtml(code.join('\n'))}</code></pre>`);
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      const level = Math.min(6, heading[1].length + (options.headingOffset ?? 0));
      const id = options.headingIds ? ` id="${escapeHtml(headingId(heading[2]))}"` : '';
      html.push(`<h${level}${id}>${renderInline(heading[2])}</h${level}>`);
      index++;
      continue;
    }
    if (RULE.test(line)) {
      html.push('<hr>');
      index++;
      continue;
    }
    if (line.includes('|') && TABLE_RULE.test(lines[index + 1] ?? '')) {
      const rows = [line, lines[index + 1]];
      for (index += 2; index < lines.length && lines[index].includes('|'); index++) rows.push(lines[index]);
      html.push(renderTable(rows));
      continue;
    }
    if (/^\s*>/.test(line)) {
      const quoted = [];
      for (; index < lines.length && /^\s*>/.test(lines[index]); index++) {
        quoted.push(lines[index].replace(/^\s*>\s?/, ''));
      }
      html.push(`<blockquote>${renderBlocks(quoted, options)}</blockquote>`);
      continue;
    }
    if (LIST_ITEM.test(line)) {
      const indent = LIST_ITEM.exec(line)[1].length;
      const block = [line];
      for (index++; index < lines.length; index++) {
        const current = lines[index];
        const item = LIST_ITEM.exec(current);
        const indented = /^\s+\S/.test(current) && current.search(/\S/) > indent;
        if (current.trim() === '') {
          const next = lines[index + 1] ?? '';
          if (!(LIST_ITEM.test(next) || (/^\s+\S/.test(next) && next.search(/\S/) > indent))) break;
          block.push(current);
        } else if (item || indented || !startsBlock(current, lines[index + 1])) block.push(current);
        else break;
      }
      html.push(renderList(block, options));
      continue;
    }
    const paragraph = [line.trim()];
    for (index++; index < lines.length; index++) {
      const current = lines[index];
      if (current.trim() === '' || startsBlock(current, lines[index + 1])) break;
      paragraph.push(current.trim());
    }
    html.push(`<p>${renderInline(paragraph.join('\n'))}</p>`);
  }
  return html.join('\n');
}

/**
 * Markdown to HTML. `headingOffset` shifts heading levels (a `#` in an operation's description should
 * not outrank the operation's own heading); `headingIds` gives headings `section/…` ids.
 */
export function renderMarkdown(text, options = {}) {
  return renderBlocks(
    String(text ?? '')
      .replace(/\r\n?/g, '\n')
      .split('\n'),
    options,
  );
}
