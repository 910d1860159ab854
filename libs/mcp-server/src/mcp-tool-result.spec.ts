import { SPILL_THRESHOLD_BYTES } from '@h/agent';
import { auditArguments, capResultText } from './mcp-tool-result';
import { formatSystemInfo, parseSystemInfo } from './system-info.tool';

describe(capResultText.name, () => {
  it('should keep text up to the threshold and cut the middle of longer text, saying how much', () => {
    expect(capResultText('short')).toBe('short');
    const long = `${'a'.repeat(SPILL_THRESHOLD_BYTES)}MIDDLE${'z'.repeat(20_000)}`;
    const cut = capResultText(long);
    expect(Buffer.byteLength(cut)).toBeLessThan(SPILL_THRESHOLD_BYTES + 1000);
    expect(cut).not.toContain('MIDDLE');
    expect(cut.startsWith('a'.repeat(1000))).toBe(true);
    expect(cut.endsWith('z'.repeat(1000))).toBe(true);
    expect(cut).toMatch(/bytes left out: MCP results are cut at 50,000 bytes/);
  });
});

describe(auditArguments.name, () => {
  it('should record paths and commands but file contents only by length', () => {
    expect(auditArguments({ path: 'a.txt', content: 'secret=1', old_string: 'x', replace_all: true, extra: { a: 1 } })).toEqual({
      path: 'a.txt',
      content: '(8 characters)',
      old_string: '(1 characters)',
      replace_all: true,
      extra: '(object)',
    });
    expect(String(auditArguments({ command: 'x'.repeat(400) }).command)).toMatch(/^x{300}… \(400 characters\)$/);
  });
});

describe(formatSystemInfo.name, () => {
  it("should show the sandbox's view and H's limits", () => {
    const info = parseSystemInfo('os=Debian GNU/Linux 12 (bookworm)\nkernel=Linux 6.1 x86_64\ncpus=2\nmem_total_kb=4096000\nmem_available_kb=2048000\ndisk=2000000 1000 1900000\nuptime_s=42\n');
    const text = formatSystemInfo(info, { cpus: 1, memoryMb: 1024, diskMb: 2048, network: 'none' });
    expect(text).toContain('os: Debian GNU/Linux 12 (bookworm) (Linux 6.1 x86_64)');
    expect(text).toContain("cpus visible: 2; H's limit: 1");
    expect(text).toContain("memory: 2000 MB available of 4000 MB on the machine; H's limit: 1024 MB");
    expect(text).toContain("workspace disk: 1 MB used, 1855 MB free of 1953 MB; H's budget: 2048 MB");
    expect(text).toContain('network: none');
  });
});
