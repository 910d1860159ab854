// Server answers (completion, hover, definition) in the contract's shapes, bounded: what a language
// server returns is sandbox-supplied and goes to every member's browser.
import type { LspCompletionItem, LspCompletionList, LspHover, LspLocation } from '@h/contracts';
import { normalizeUri, toRange } from './lsp-pipeline';

export const COMPLETION_MAX_ITEMS = 200;
export const HOVER_MAX_CHARS = 16 * 1024;
export const DEFINITION_MAX_LOCATIONS = 50;
const LABEL_MAX = 500;
const DOC_MAX = 4000;

const str = (v: unknown, max: number): string | undefined => (typeof v === 'string' ? v.slice(0, max) : undefined);

/** MarkupContent, MarkedString or an array of them, as markdown. */
export function markdownOf(v: unknown, max = HOVER_MAX_CHARS): string {
  if (typeof v === 'string') return v.slice(0, max);
  if (Array.isArray(v)) return v.slice(0, 20).map((x) => markdownOf(x, max)).filter(Boolean).join('\n\n').slice(0, max);
  if (v && typeof v === 'object') {
    const o = v as { kind?: string; value?: unknown; language?: string };
    if (typeof o.value !== 'string') return '';
    if (typeof o.language === 'string') return ('```' + o.language.slice(0, 40) + '\n' + o.value + '\n```').slice(0, max);
    return o.value.slice(0, max);
  }
  return '';
}

export function toCompletionList(raw: unknown): LspCompletionList {
  const list = Array.isArray(raw) ? { items: raw, isIncomplete: false } : ((raw ?? { items: [] }) as { items?: unknown; isIncomplete?: boolean });
  const items: LspCompletionItem[] = [];
  const rawItems = Array.isArray(list.items) ? list.items : [];
  for (const it of rawItems.slice(0, COMPLETION_MAX_ITEMS) as Record<string, any>[]) {
    const label = str(it?.label, LABEL_MAX);
    if (!label) continue;
    const edit = it.textEdit as { newText?: unknown; range?: unknown; replace?: unknown } | undefined;
    const insertText = str(edit?.newText, DOC_MAX) ?? str(it.insertText, DOC_MAX) ?? label;
    const item: LspCompletionItem = { label, insertText };
    if (Number.isInteger(it.kind)) item.kind = it.kind;
    const detail = str(it.detail, LABEL_MAX);
    if (detail) item.detail = detail;
    const documentation = markdownOf(it.documentation, DOC_MAX);
    if (documentation) item.documentation = documentation;
    if (it.insertTextFormat === 2) item.snippet = true;
    const range = toRange(edit?.range ?? edit?.replace);
    if (range) item.range = range;
    items.push(item);
  }
  return { items, incomplete: !!list.isIncomplete || rawItems.length > COMPLETION_MAX_ITEMS };
}

export function toHover(raw: unknown): LspHover | null {
  if (!raw || typeof raw !== 'object') return null;
  const h = raw as { contents?: unknown; range?: unknown };
  const contents = markdownOf(h.contents);
  if (!contents.trim()) return null;
  const range = toRange(h.range);
  return range ? { contents, range } : { contents };
}

/** Location | Location[] | LocationLink[] inside the workspace (library typings dropped). */
export function toLocations(raw: unknown, root: string): LspLocation[] {
  const arr = Array.isArray(raw) ? raw : raw ? [raw] : [];
  const out: LspLocation[] = [];
  for (const l of arr.slice(0, DEFINITION_MAX_LOCATIONS) as Record<string, any>[]) {
    const uri = l?.uri ?? l?.targetUri;
    const rel = typeof uri === 'string' ? normalizeUri(uri, root) : null;
    const range = toRange(l?.range ?? l?.targetSelectionRange ?? l?.targetRange);
    if (rel !== null && range) out.push({ path: rel, range });
  }
  return out;
}
