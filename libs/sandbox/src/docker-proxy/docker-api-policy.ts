// What H's Docker socket proxy lets through: the calls the sandbox driver makes, on H's own
// containers, volumes and execs only. Pure (no I/O): the proxy resolves ownership with the engine.
// Anything not listed here is refused; a new Docker call in the driver needs a line here.
import { posix } from 'node:path';
import { LABEL_MANAGED, LABEL_NAMESPACE } from '../docker-labels';

export type Decision =
  | { kind: 'deny'; reason: string }
  /** Forward to `path` (list filters possibly narrowed to H's labels). */
  | { kind: 'forward'; path: string }
  /** Forward once the named container is H's, to `build(its full id)`. */
  | { kind: 'container'; ref: string; build: (id: string) => string }
  /** Forward once the exec belongs to one of H's containers. */
  | { kind: 'exec'; id: string; path: string }
  /** Forward once the volume is H's. */
  | { kind: 'volume'; name: string; path: string }
  /** Forward once the image carries the sandbox label (container create). */
  | { kind: 'image'; image: string; path: string };

export interface ProxyRequest {
  method: string;
  /** Path and query as received, e.g. /v1.41/containers/json?all=1 */
  url: string;
  /** Parsed JSON body, for the calls whose body is checked. */
  body?: unknown;
}

/** Label every sandbox image carries (infra/sandbox/build-image.sh). */
export const LABEL_SANDBOX_IMAGE = 'h.sandbox';

/** Network modes a sandbox may be created with: none, or Docker's default bridge for "network on". */
const NETWORK_MODES = new Set(['none', 'bridge']);
const RUNTIMES = new Set(['', 'runc', 'runsc']);
const CONTAINER_OPS: Record<string, string[]> = {
  json: ['GET'],
  start: ['POST'],
  stop: ['POST'],
  restart: ['POST'],
  kill: ['POST'],
  wait: ['POST'],
  rename: ['POST'],
  exec: ['POST'],
  logs: ['GET'],
  stats: ['GET'],
  top: ['GET'],
  update: ['POST'],
};
// HostConfig keys a sandbox may set; every other key must be empty (false, 0, "", null, [], {}).
const HOST_CONFIG_KEYS = new Set([
  'Mounts', 'Binds', 'Tmpfs', 'NetworkMode', 'ReadonlyRootfs', 'CapDrop', 'SecurityOpt', 'NanoCpus', 'CpuShares',
  'CpuQuota', 'CpuPeriod', 'CpusetCpus', 'Memory', 'MemorySwap', 'MemoryReservation', 'PidsLimit', 'RestartPolicy',
  'LogConfig', 'Runtime', 'StorageOpt', 'Ulimits', 'Init', 'AutoRemove', 'ShmSize', 'OomScoreAdj', 'BlkioWeight',
]);
const CREATE_KEYS = new Set([
  'name', 'Image', 'User', 'WorkingDir', 'Env', 'Labels', 'Cmd', 'Entrypoint', 'Hostname', 'Domainname', 'Tty',
  'OpenStdin', 'StdinOnce', 'AttachStdin', 'AttachStdout', 'AttachStderr', 'StopSignal', 'StopTimeout', 'HostConfig',
  'NetworkingConfig', 'Healthcheck', 'NetworkDisabled', 'ArgsEscaped', 'Shell',
]);
const UPDATE_KEYS = new Set(['CpuShares', 'Memory', 'MemorySwap', 'MemoryReservation', 'NanoCpus', 'CpuQuota', 'CpuPeriod', 'PidsLimit', 'RestartPolicy', 'BlkioWeight']);
const EXEC_KEYS = new Set(['AttachStdin', 'AttachStdout', 'AttachStderr', 'DetachKeys', 'Tty', 'ConsoleSize', 'Env', 'Cmd', 'Privileged', 'User', 'WorkingDir']);
const MOUNT_KEYS = new Set(['Type', 'Source', 'Target', 'ReadOnly', 'Consistency', 'TmpfsOptions']);
const LOG_DRIVERS = new Set(['', 'json-file', 'local', 'none']);

const deny = (reason: string): Decision => ({ kind: 'deny', reason });

function isEmpty(v: unknown): boolean {
  if (v === undefined || v === null || v === false || v === 0 || v === '') return true;
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v === 'object') return Object.keys(v as object).length === 0;
  return false;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Keys of `obj` outside `allowed` that carry a value. Exact case on purpose: the engine (Go's
 * encoding/json) matches keys case-insensitively, so `privileged` or a second `networkmode` must
 * not slip past a check that reads `Privileged` / `NetworkMode`.
 */
function extraKeys(obj: Record<string, unknown>, allowed: Set<string>): string[] {
  return Object.keys(obj).filter((k) => !allowed.has(k) && !isEmpty(obj[k]));
}

/** True when the labels mark an object of this installation (`prefix` is SANDBOX_NAME_PREFIX). */
export function ownedLabels(labels: unknown, prefix: string): boolean {
  return isRecord(labels) && labels[LABEL_MANAGED] === '1' && labels[LABEL_NAMESPACE] === prefix;
}

/** Adds H's labels to a list call's `filters`, so the engine lists only H's objects. */
function withOwnFilters(url: URL, prefix: string): string | null {
  let filters: Record<string, unknown> = {};
  const raw = url.searchParams.get('filters');
  if (raw) {
    try {
      const parsed: unknown = JSON.parse(raw);
      if (!isRecord(parsed)) return null;
      filters = parsed;
    } catch {
      return null;
    }
  }
  const label = filters.label;
  // Both encodings the engine accepts: ["k=v"] and the older {"k=v": true}.
  const labels = Array.isArray(label) ? label.map(String) : isRecord(label) ? Object.keys(label) : [];
  filters.label = [...labels, `${LABEL_MANAGED}=1`, `${LABEL_NAMESPACE}=${prefix}`];
  url.searchParams.set('filters', JSON.stringify(filters));
  return url.pathname + url.search;
}

/** A normalized absolute host path inside one of the directories the operator allowed for binds. */
function inBindDirs(source: string, bindDirs: string[]): boolean {
  if (!source.startsWith('/') || posix.normalize(source) !== source) return false;
  return bindDirs.some((d) => source === d || source.startsWith(d.endsWith('/') ? d : `${d}/`));
}

function checkCreate(url: URL, body: unknown, prefix: string, bindDirs: string[]): Decision {
  const name = url.searchParams.get('name') ?? '';
  if (url.searchParams.getAll('name').length !== 1 || !name.startsWith(prefix)) return deny(`container name must start with ${prefix}`);
  if (!isRecord(body)) return deny('container create needs a JSON body');
  const extra = extraKeys(body, CREATE_KEYS);
  if (extra.length) return deny(`container field(s) not allowed: ${extra.join(', ')}`);
  if (!ownedLabels(body.Labels, prefix)) return deny(`container must carry ${LABEL_MANAGED}=1 and ${LABEL_NAMESPACE}=${prefix}`);
  if (typeof body.Image !== 'string' || !body.Image) return deny('container needs an Image');
  if (!isEmpty(body.NetworkingConfig)) return deny('NetworkingConfig is not allowed');
  const host = body.HostConfig ?? {};
  if (!isRecord(host)) return deny('HostConfig must be an object');
  const hostExtra = extraKeys(host, HOST_CONFIG_KEYS);
  if (hostExtra.length) return deny(`HostConfig field(s) not allowed: ${hostExtra.join(', ')}`);
  const network = (host.NetworkMode as string | undefined) ?? 'none';
  if (!NETWORK_MODES.has(network)) return deny(`NetworkMode ${network} is not allowed`);
  if (!RUNTIMES.has((host.Runtime as string | undefined) ?? '')) return deny(`runtime ${String(host.Runtime)} is not allowed`);
  for (const opt of (host.SecurityOpt as unknown[] | undefined) ?? []) {
    if (!/^no-new-privileges([:=]true)?$/.test(String(opt))) return deny(`SecurityOpt ${String(opt)} is not allowed`);
  }
  // Named volumes of its own namespace and tmpfs; host paths only inside DOCKER_PROXY_BIND_DIRS
  // (e.g. a directory of per-sandbox sockets), none by default.
  for (const bind of (host.Binds as unknown[] | undefined) ?? []) {
    const source = String(bind).split(':')[0];
    const ok = source.startsWith('/') ? inBindDirs(source, bindDirs) : source.startsWith(prefix);
    if (!ok) return deny(`bind ${String(bind)} is not allowed`);
  }
  for (const m of (host.Mounts as unknown[] | undefined) ?? []) {
    if (!isRecord(m)) return deny('a mount must be an object');
    if (extraKeys(m, MOUNT_KEYS).length) return deny(`mount field(s) not allowed: ${extraKeys(m, MOUNT_KEYS).join(', ')}`);
    if (m.Type === 'tmpfs') continue;
    if (m.Type === 'bind' && typeof m.Source === 'string' && inBindDirs(m.Source, bindDirs)) continue;
    if (m.Type !== 'volume' || typeof m.Source !== 'string' || !m.Source.startsWith(prefix)) {
      return deny(`mount of ${String(m.Type)} ${String(m.Source)} is not allowed`);
    }
  }
  const log = host.LogConfig;
  if (!isEmpty(log) && (!isRecord(log) || extraKeys(log, new Set(['Type', 'Config'])).length || !LOG_DRIVERS.has(String(log.Type ?? '')))) {
    return deny('LogConfig allows only the json-file, local and none drivers');
  }
  const storage = host.StorageOpt;
  if (isRecord(storage) && Object.keys(storage).some((k) => k !== 'size')) return deny('StorageOpt allows only size');
  return { kind: 'image', image: body.Image, path: url.pathname + url.search };
}

function checkVolumeCreate(body: unknown, prefix: string): Decision {
  if (!isRecord(body)) return deny('volume create needs a JSON body');
  if (typeof body.Name !== 'string' || !body.Name.startsWith(prefix)) return deny(`volume name must start with ${prefix}`);
  if (!ownedLabels(body.Labels, prefix)) return deny(`volume must carry ${LABEL_MANAGED}=1 and ${LABEL_NAMESPACE}=${prefix}`);
  if (!['', 'local', undefined].includes(body.Driver as string | undefined)) return deny(`volume driver ${String(body.Driver)} is not allowed`);
  const opts = body.DriverOpts;
  // The local driver's options can bind-mount any host path (type=none,o=bind,device=/): only tmpfs.
  if (!isEmpty(opts)) {
    if (!isRecord(opts) || opts.type !== 'tmpfs' || /bind/.test(String(opts.o ?? '')) || !['tmpfs', undefined].includes(opts.device as string | undefined)) {
      return deny('volume driver options are limited to tmpfs');
    }
  }
  return { kind: 'forward', path: '' };
}

/**
 * The decision for one request. `prefix` is the installation's sandbox name prefix: containers
 * and volumes must be named with it and labelled with it (h.ns) and h.managed=1. `bindDirs` are
 * the host directories a sandbox may bind-mount from (default none).
 */
export function decide(req: ProxyRequest, prefix: string, bindDirs: string[] = []): Decision {
  let url: URL;
  try {
    url = new URL(req.url, 'http://docker');
  } catch {
    return deny('malformed path');
  }
  // Path tricks the engine's router would clean up differently than this check reads them.
  if (/\/\.|\/\/|%2f|%2e|%5c|\\/i.test(url.pathname) || url.pathname !== req.url.split('?')[0]) return deny('path not allowed');
  const version = /^\/v\d+(\.\d+)?(?=\/)/.exec(url.pathname)?.[0] ?? '';
  const path = url.pathname.slice(version.length);
  const m = req.method.toUpperCase();
  const seg = path.split('/').slice(1).map(decodeURIComponent);
  const again = (p: string) => version + p + url.search;

  if ((m === 'GET' || m === 'HEAD') && ['/_ping', '/version', '/info'].includes(path)) return { kind: 'forward', path: again(path) };

  if (seg[0] === 'containers') {
    if (seg.length === 2 && seg[1] === 'json' && m === 'GET') {
      const p = withOwnFilters(url, prefix);
      return p ? { kind: 'forward', path: p } : deny('filters must be a JSON object');
    }
    if (seg.length === 2 && seg[1] === 'create' && m === 'POST') return checkCreate(url, req.body, prefix, bindDirs);
    if (seg.length === 2 && m === 'DELETE') return { kind: 'container', ref: seg[1], build: (id) => again(`/containers/${id}`) };
    if (seg.length === 3 && CONTAINER_OPS[seg[2]]?.includes(m)) {
      const op = seg[2];
      if (op === 'rename' && (url.searchParams.getAll('name').length !== 1 || !(url.searchParams.get('name') ?? '').startsWith(prefix))) {
        return deny(`new name must start with ${prefix}`);
      }
      if (op === 'exec') {
        if (!isRecord(req.body)) return deny('exec create needs a JSON body');
        if (req.body.Privileged) return deny('privileged exec is not allowed');
        const extra = extraKeys(req.body, EXEC_KEYS);
        if (extra.length) return deny(`exec field(s) not allowed: ${extra.join(', ')}`);
      }
      if (op === 'update') {
        if (!isRecord(req.body)) return deny('update needs a JSON body');
        const extra = extraKeys(req.body, UPDATE_KEYS);
        if (extra.length) return deny(`update field(s) not allowed: ${extra.join(', ')}`);
      }
      return { kind: 'container', ref: seg[1], build: (id) => again(`/containers/${id}/${op}`) };
    }
    return deny(`${m} ${path} is not allowed`);
  }

  if (seg[0] === 'exec' && seg.length === 3 && ((seg[2] === 'start' && m === 'POST') || (seg[2] === 'resize' && m === 'POST') || (seg[2] === 'json' && m === 'GET'))) {
    return { kind: 'exec', id: seg[1], path: again(path) };
  }

  if (seg[0] === 'volumes') {
    if (seg.length === 1 && m === 'GET') {
      const p = withOwnFilters(url, prefix);
      return p ? { kind: 'forward', path: p } : deny('filters must be a JSON object');
    }
    if (seg.length === 2 && seg[1] === 'create' && m === 'POST') {
      const d = checkVolumeCreate(req.body, prefix);
      return d.kind === 'forward' ? { kind: 'forward', path: again('/volumes/create') } : d;
    }
    if (seg.length === 2 && (m === 'GET' || m === 'DELETE')) return { kind: 'volume', name: seg[1], path: again(path) };
    return deny(`${m} ${path} is not allowed`);
  }

  // Reading an image's metadata (the driver checks its sandbox image); never pulling or building.
  if (seg[0] === 'images' && seg.length >= 3 && seg[seg.length - 1] === 'json' && m === 'GET') return { kind: 'forward', path: again(path) };

  return deny(`${m} ${path} is not allowed`);
}

/** Whether a request's body must be read and checked before the decision (JSON bodies only). */
export function needsBody(method: string, url: string): boolean {
  if (method.toUpperCase() !== 'POST') return false;
  const path = url.split('?')[0].replace(/^\/v\d+(\.\d+)?(?=\/)/, '');
  return /^\/containers\/create$|^\/containers\/[^/]+\/(exec|update)$|^\/volumes\/create$/.test(path);
}
