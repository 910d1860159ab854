// Where to go after signing in: the page that sent the user to /login, if it is one of ours.
export function nextPath(search: string): string {
  const next = new URLSearchParams(search).get('next');
  // Only same-origin paths: "//host" or "/\host" would leave the site.
  if (next && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\')) return next;
  return '/teams';
}
