import { settingsPlace } from '@h/contracts/settings-sections';
import { CliError, EXIT } from './exit-codes';

/** H's HTTP API with a bearer token; every failure becomes a CliError that says what to do next. */
export class ApiClient {
  constructor(
    readonly url: string,
    private readonly token: string,
  ) {}

  async get<T>(path: string): Promise<T> {
    return (await this.request('GET', path)).json() as Promise<T>;
  }

  async getText(path: string): Promise<string> {
    return (await this.request('GET', path)).text();
  }

  async post<T>(path: string, body: unknown): Promise<T> {
    return (await this.request('POST', path, body)).json() as Promise<T>;
  }

  /** The raw response of a successful request (the event stream reads its body). */
  async request(method: string, path: string, body?: unknown, init: { signal?: AbortSignal; headers?: Record<string, string> } = {}): Promise<Response> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.token}`, accept: 'application/json', ...init.headers };
    if (body !== undefined) headers['content-type'] = 'application/json';
    let res: Response;
    try {
      res = await fetch(this.url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: init.signal });
    } catch (err) {
      if ((err as Error).name === 'AbortError') throw err;
      throw unreachable(this.url, err);
    }
    if (res.ok) return res;
    throw await httpError(this.url, res);
  }
}

function unreachable(url: string, err: unknown): CliError {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  const why = cause?.code ?? cause?.message ?? (err as Error).message;
  return new CliError(
    `Cannot reach H at ${url} (${why}). Check the URL and that H is running (\`curl ${url}/api/health\` should answer {"status":"ok"}); ` +
      'set it with `h login --url URL --token TOKEN` or H_URL.',
    EXIT.unavailable,
  );
}

async function httpError(url: string, res: Response): Promise<CliError> {
  const text = await res.text().catch(() => '');
  let code = `HTTP_${res.status}`;
  let message = text.slice(0, 300) || res.statusText;
  try {
    const parsed = JSON.parse(text) as { error?: { code?: string; message?: string } };
    if (parsed.error?.code) code = parsed.error.code;
    if (parsed.error?.message) message = parsed.error.message;
  } catch {
    // not JSON: a proxy's page, or not H at all
    if (/<html/i.test(text)) message = `an HTML page answered, not H's API: is ${url} H's address?`;
  }
  if (res.status === 401) {
    return new CliError(`H at ${url} refused the token (${code}: ${message}). Make a new API token (${settingsPlace('tokens')}), then \`h login --url ${url} --token TOKEN\` or set H_TOKEN.`, EXIT.unavailable);
  }
  if (res.status === 403) return new CliError(`Not allowed (${code}): ${message} A token needs the write scope to start runs and answer approvals.`, EXIT.unavailable);
  if (res.status === 429) {
    const retry = res.headers.get('retry-after');
    return new CliError(`H is busy or a limit is reached (${code}): ${message}${retry ? ` Try again in ${retry} s.` : ''}`, EXIT.unavailable);
  }
  if (res.status >= 500) return new CliError(`H answered ${res.status} (${code}): ${message} Try again; if it keeps failing, the operator's logs say why.`, EXIT.unavailable);
  return new CliError(`${message} (${code})`, EXIT.usage);
}
