// Functions that run inside pages (passed to Playwright's evaluate, so they must be self-contained:
// no imports, no closures over module scope). Kept apart so their limits are visible in one place.

export interface SnapArgs {
  /** Viewport CSS pixels. */
  x: number;
  y: number;
  /** How far (CSS px) from the point an interactive element may be and still be the target. */
  radius: number;
}

export interface SnapInfo {
  /** `<button> "Sign In"`, or null when nothing interactive was near. */
  target: string | null;
  /** The point to act on: the given one on a direct hit, the element's centre after a snap. */
  x: number;
  y: number;
}

/**
 * Finds the interactive element at or nearest to a point. A direct hit (or an interactive
 * ancestor of what is hit) keeps the point; otherwise the nearest visible interactive element
 * within `radius` wins and the point moves to its centre. Returns [element | null, info].
 */
export function snapInPage(arg: SnapArgs): [Element | null, SnapInfo] {
  const SELECTOR =
    'a,button,input,select,textarea,summary,[role=button],[role=link],[role=checkbox],[role=tab],[role=menuitem],[onclick],[tabindex],[contenteditable=""],[contenteditable=true],label';
  const SCAN_MAX = 3000;
  const clean = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim();
  const cut = (s: string, n: number) => (s.length > n ? s.slice(0, n - 1) + '…' : s);
  const describe = (el: Element): string => {
    const tag = el.tagName.toLowerCase();
    const attrs: string[] = [];
    const input = el as HTMLInputElement;
    if (tag === 'input') attrs.push(`type="${clean(input.type) || 'text'}"`);
    if (tag === 'a' && el.getAttribute('href')) attrs.push(`href="${cut(clean(el.getAttribute('href')), 80)}"`);
    const role = el.getAttribute('role');
    if (role) attrs.push(`role="${cut(clean(role), 20)}"`);
    const labels = (input as { labels?: NodeListOf<HTMLLabelElement> | null }).labels;
    let text = clean(el.getAttribute('aria-label'));
    if (!text && labels && labels.length) text = clean(labels[0].innerText);
    if (!text) text = clean(el.getAttribute('placeholder'));
    if (!text && tag !== 'input' && tag !== 'textarea' && tag !== 'select') text = clean((el as HTMLElement).innerText);
    if (!text && tag === 'select') {
      const sel = el as HTMLSelectElement;
      text = clean(sel.selectedOptions[0]?.label);
    }
    if (!text && (tag === 'input' || tag === 'textarea') && input.type !== 'password') text = clean(input.value);
    if (!text) text = clean(el.getAttribute('title') || el.getAttribute('name') || el.querySelector('img')?.getAttribute('alt'));
    const head = `<${[tag, ...attrs].join(' ')}>`;
    return text ? `${head} "${cut(text, 60)}"` : head;
  };
  const visible = (el: Element, r: DOMRect) => {
    if (r.width <= 0 || r.height <= 0) return false;
    if (r.bottom < 0 || r.right < 0 || r.top > innerHeight || r.left > innerWidth) return false;
    const style = getComputedStyle(el);
    return style.visibility !== 'hidden' && style.display !== 'none' && style.pointerEvents !== 'none';
  };
  const hit = document.elementFromPoint(arg.x, arg.y);
  const direct = hit ? hit.closest(SELECTOR) : null;
  if (direct) return [direct, { target: describe(direct), x: arg.x, y: arg.y }];
  let best: Element | null = null;
  let bestDistance = Infinity;
  let bestRect: DOMRect | null = null;
  const all = document.querySelectorAll(SELECTOR);
  for (let i = 0; i < all.length && i < SCAN_MAX; i++) {
    const el = all[i];
    const r = el.getBoundingClientRect();
    const dx = Math.max(r.left - arg.x, 0, arg.x - r.right);
    const dy = Math.max(r.top - arg.y, 0, arg.y - r.bottom);
    const d = Math.hypot(dx, dy);
    if (d > arg.radius || d >= bestDistance || !visible(el, r)) continue;
    best = el;
    bestDistance = d;
    bestRect = r;
  }
  if (!best || !bestRect) return [null, { target: null, x: arg.x, y: arg.y }];
  const cx = Math.round(Math.min(Math.max(bestRect.left + bestRect.width / 2, 0), innerWidth - 1));
  const cy = Math.round(Math.min(Math.max(bestRect.top + bestRect.height / 2, 0), innerHeight - 1));
  return [best, { target: describe(best), x: cx, y: cy }];
}

export interface ComposeArgs {
  /** The viewport PNG, base64. */
  png: string;
  width: number;
  height: number;
  /** Grid spacing in image pixels. */
  step: number;
}

/**
 * Draws the screenshot scaled to width×height on a canvas with a grid line every `step` image
 * pixels and the coordinate at each line's start, so the model can read positions off the image.
 * Returns the PNG, base64. Runs in a blank page of its own context (never one of the tabs).
 */
export async function composeInPage(arg: ComposeArgs): Promise<string> {
  const img = new Image();
  img.src = `data:image/png;base64,${arg.png}`;
  await img.decode();
  const canvas = document.createElement('canvas');
  canvas.width = arg.width;
  canvas.height = arg.height;
  const g = canvas.getContext('2d');
  if (!g) throw new Error('no 2d canvas');
  g.drawImage(img, 0, 0, arg.width, arg.height);
  g.lineWidth = 1;
  g.strokeStyle = 'rgba(255, 0, 80, 0.45)';
  g.beginPath();
  for (let x = arg.step; x < arg.width; x += arg.step) {
    g.moveTo(x + 0.5, 0);
    g.lineTo(x + 0.5, arg.height);
  }
  for (let y = arg.step; y < arg.height; y += arg.step) {
    g.moveTo(0, y + 0.5);
    g.lineTo(arg.width, y + 0.5);
  }
  g.stroke();
  g.font = 'bold 11px sans-serif';
  g.textBaseline = 'top';
  const label = (text: string, x: number, y: number) => {
    const w = g.measureText(text).width + 4;
    // Labels near the right edge move left so the last one (e.g. "1000") stays whole.
    x = Math.min(x, arg.width - w);
    g.fillStyle = 'rgba(255, 255, 255, 0.85)';
    g.fillRect(x, y, w, 13);
    g.fillStyle = 'rgb(200, 0, 60)';
    g.fillText(text, x + 2, y + 1);
  };
  for (let x = arg.step; x < arg.width; x += arg.step) label(String(x), x + 2, 1);
  for (let y = arg.step; y < arg.height; y += arg.step) label(String(y), 1, y + 2);
  return canvas.toDataURL('image/png').slice('data:image/png;base64,'.length);
}
