// Where to go after signing in: the page that sent the user to /login, if it is one of ours.
const BASE = 'http://h.invalid';

export function nextPath(search: string): string {
  const next = new URLSearchParams(search).get('next');
  if (!next || !next.startsWith('/')) return '/teams';
  // Resolve it the way the browser will: the URL parser drops tabs and newlines and reads "\" as
  // "/", so "/\t/evil.example" or "/\\evil.example" become "//evil.example", another site. Only a
  // path that stays on this origin is followed.
  let url: URL;
  try {
    url = new URL(next, BASE);
  } catch {
    return '/teams';
  }
  if (url.origin !== BASE) return '/teams';
  return url.pathname + url.search + url.hash;
}
