import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// The build scripts' inputs: no package-archive or registry host named anywhere a build runs; the
// Debian mirror comes from the machine's own apt sources; the base image's tag follows its recipe.
const root = join(__dirname, '..', '..');
const sandbox = join(root, 'infra/sandbox');

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

describe('build scripts', () => {
  it('should name no Debian archive or npm registry host (the machine configures those)', () => {
    const hosts = /deb\.debian\.org|security\.debian\.org|registry\.npmjs\.org|registry\.yarnpkg\.com/;
    const files = [...filesUnder(join(root, 'infra')), ...filesUnder(join(root, 'scripts')), join(root, 'docker-compose.yml')];
    const naming = files.filter((f) => hosts.test(readFileSync(f, 'utf8'))).map((f) => f.slice(root.length + 1));
    expect(naming).toEqual([]);
  });

  // build-image.sh tags the base by packages.txt + versions.env only, so that edits of build-base.sh
  // that change nothing in the image do not rebuild it everywhere. This fingerprint of its commands
  // and those of debian-rootfs.sh, which it sources (comments and blank lines ignored), makes every
  // other edit a decision: if what ends up in the image changes, bump BASE_RECIPE in versions.env;
  // either way, record the new pair here.
  const RECORDED = { recipe: '1', commands: 'db70c6fe755c12ce' };

  it("should bump BASE_RECIPE when build-base.sh's or debian-rootfs.sh's commands change", () => {
    const commands = ['build-base.sh', 'debian-rootfs.sh']
      .map((f) => readFileSync(join(sandbox, f), 'utf8'))
      .join('\n')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'))
      .join('\n');
    const fingerprint = createHash('sha256').update(commands).digest('hex').slice(0, 16);
    const recipe = /^BASE_RECIPE=(\S+)$/m.exec(readFileSync(join(sandbox, 'versions.env'), 'utf8'))?.[1];
    expect({ recipe, commands: fingerprint }).toEqual(RECORDED);
  });
});

describe('infra/sandbox/debian-mirror.sh', () => {
  let etc: string;
  const mirror = (env: Record<string, string> = {}, suite = 'bookworm') =>
    spawnSync('bash', [join(sandbox, 'debian-mirror.sh'), suite], {
      env: { PATH: process.env.PATH, H_APT_ETC: etc, ...env },
      encoding: 'utf8',
    });

  beforeEach(() => {
    etc = mkdtempSync(join(tmpdir(), 'h-apt-'));
    mkdirSync(join(etc, 'sources.list.d'));
  });
  afterEach(() => rmSync(etc, { recursive: true, force: true }));

  it('should read deb822 sources, skipping disabled, source-only and third-party entries', () => {
    writeFileSync(
      join(etc, 'sources.list.d/vendor.sources'),
      'Types: deb\nURIs: https://vendor.example/apt\nSuites: nodistro\nComponents: main\n',
    );
    writeFileSync(
      join(etc, 'sources.list.d/debian.sources'),
      [
        '# the archive',
        'Types: deb-src',
        'URIs: http://src.example/debian',
        'Suites: bookworm',
        '',
        'Types: deb',
        'Enabled: no',
        'URIs: http://old.example/debian',
        'Suites: bookworm',
        '',
        'Types: deb',
        'URIs: http://mirror.example/debian/',
        'Suites: bookworm bookworm-updates',
        'Components: main',
        'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg',
        '',
        'Types: deb',
        'URIs: http://mirror.example/debian-security',
        'Suites: bookworm-security',
        'Components: main',
        '',
      ].join('\n'),
    );
    const r = mirror();
    expect(r.stdout).toBe('http://mirror.example/debian\nhttp://mirror.example/debian-security\n');
  });

  it('should read the one-line format, options included, and honour H_DEBIAN_MIRROR', () => {
    writeFileSync(
      join(etc, 'sources.list'),
      '# comment\ndeb-src http://src.example/debian bookworm main\ndeb [arch=amd64 signed-by=/k.gpg] http://one.example/debian bookworm main\n',
    );
    expect(mirror().stdout).toBe('http://one.example/debian\nhttp://one.example/debian-security\n');
    expect(mirror({ H_DEBIAN_MIRROR: 'http://mine.example/debian' }).stdout).toBe('http://mine.example/debian\nhttp://mine.example/debian-security\n');
  });

  it("should fall back to a /debian mirror of another suite (the host's own release)", () => {
    writeFileSync(join(etc, 'sources.list'), 'deb http://one.example/debian trixie main\n');
    expect(mirror({}, 'bookworm').stdout.split('\n')[0]).toBe('http://one.example/debian');
  });

  it('should fail with a clear message when the machine has no Debian source', () => {
    writeFileSync(join(etc, 'sources.list'), 'deb http://archive.example/ubuntu noble main\n');
    const r = mirror();
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/set H_DEBIAN_MIRROR/);
  });

  it("should find this machine's mirror", () => {
    expect(execFileSync('bash', [join(sandbox, 'debian-mirror.sh'), 'bookworm'], { encoding: 'utf8' })).toMatch(/^https?:\/\/\S+\nhttps?:\/\/\S+\n$/);
  });
});
