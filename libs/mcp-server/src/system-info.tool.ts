// system_info of the seed's MCP tool set: CPU, memory, disk and OS as the workspace's sandbox sees
// them (one fixed script through the same exec as run_command; nothing of the host's own), plus
// the limits H gives each sandbox, which a client cannot read from inside.
import { params, ToolError, type AgentTool } from '@h/tools';

const input = params({});

// Fixed text: no input reaches the shell. cgroup v2 and v1 files are both tried (the engine decides).
const SCRIPT = [
  'echo "os=$(. /etc/os-release 2>/dev/null && echo "$PRETTY_NAME")"',
  'echo "kernel=$(uname -srm)"',
  'echo "cpus=$(nproc 2>/dev/null)"',
  "echo \"mem_total_kb=$(awk '/^MemTotal:/{print $2}' /proc/meminfo)\"",
  "echo \"mem_available_kb=$(awk '/^MemAvailable:/{print $2}' /proc/meminfo)\"",
  'echo "cgroup_memory_limit=$(cat /sys/fs/cgroup/memory.max 2>/dev/null || cat /sys/fs/cgroup/memory/memory.limit_in_bytes 2>/dev/null)"',
  "echo \"disk=$(df -kP . 2>/dev/null | awk 'NR==2{print $2\" \"$3\" \"$4}')\"",
  'echo "uptime_s=$(cut -d. -f1 /proc/uptime)"',
].join('; ');

export interface SandboxLimits {
  cpus: number;
  memoryMb: number;
  /** 0: no disk budget. */
  diskMb: number;
  network: 'none' | 'egress';
}

export function parseSystemInfo(stdout: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of stdout.split('\n')) {
    const eq = line.indexOf('=');
    if (eq > 0) out[line.slice(0, eq)] = line.slice(eq + 1).trim();
  }
  return out;
}

const mb = (kb: string | undefined) => (kb && /^\d+$/.test(kb) ? `${Math.round(Number(kb) / 1024)} MB` : 'unknown');

export function formatSystemInfo(info: Record<string, string>, limits: SandboxLimits): string {
  const [total, used, free] = (info.disk ?? '').split(' ');
  return [
    `os: ${info.os || 'unknown'} (${info.kernel || 'unknown kernel'})`,
    `cpus visible: ${info.cpus || 'unknown'}; H's limit: ${limits.cpus}`,
    `memory: ${mb(info.mem_available_kb)} available of ${mb(info.mem_total_kb)} on the machine; H's limit: ${limits.memoryMb} MB`,
    `workspace disk: ${mb(used)} used, ${mb(free)} free of ${mb(total)}${limits.diskMb ? `; H's budget: ${limits.diskMb} MB` : ''}`,
    `network: ${limits.network === 'none' ? 'none' : "through H's egress proxy, to the workspace's allowed hosts"}`,
    `sandbox up: ${info.uptime_s ? `${info.uptime_s} s` : 'unknown'}`,
  ].join('\n');
}

export function systemInfoTool(limitsOf: () => Promise<SandboxLimits>): AgentTool<typeof input.zod._output> {
  return {
    name: 'system_info',
    description: "CPU, memory, disk and OS of the workspace's sandbox, and the limits H gives it.",
    category: 'read',
    parameters: input.json,
    input: input.zod,
    async execute(_args, { workspace, signal }) {
      const r = await workspace.exec(SCRIPT, { timeoutMs: 10_000, maxOutputBytes: 64 * 1024, signal });
      if (r.exitCode !== 0) throw new ToolError(`system_info could not read the sandbox (${r.timedOut ? 'timed out' : `exit ${r.exitCode}`}): ${r.stderr.slice(0, 500)}`);
      const info = parseSystemInfo(r.stdout);
      const limits = await limitsOf();
      return { text: formatSystemInfo(info, limits), data: { ...info, limits } };
    },
  };
}
