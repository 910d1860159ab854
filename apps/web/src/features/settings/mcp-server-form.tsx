'use client';

import { type FormEvent, useState } from 'react';
import { Field } from '../../components/field';
import { FormError } from '../../components/form-error';
import { SubmitButton } from '../../components/submit-button';
import type { McpApproval, McpServer, McpTransport } from '@h/contracts';
import { MCP_COMMAND_MAX_LENGTH, MCP_SERVER_NAME_MAX_LENGTH, MCP_SERVER_NAME_PATTERN, MCP_URL_MAX_LENGTH } from '@h/contracts/mcp-servers';
import { ApiError } from '../../lib/api-client';
import { useAction } from '../../lib/use-action';

/** What the form sends: a create body, or a change (headers only when typed: they are write-only). */
export type McpServerBody = Record<string, unknown>;

const lines = (text: string) => text.split('\n').map((l) => l.trim()).filter(Boolean);

/** `KEY=value` (env) or `Name: value` (headers) per line into an object; a line without the separator is an error. */
function pairs(text: string, separator: '=' | ':', what: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of lines(text)) {
    const at = line.indexOf(separator);
    if (at <= 0) throw new ApiError(400, 'VALIDATION_FAILED', `${what}: “${line.slice(0, 40)}” needs the form ${separator === '=' ? 'NAME=value' : 'Name: value'}`);
    out[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return out;
}

// One form for adding a server and for changing one. The transport decides which fields show;
// header values are never shown again (the API returns only their names), so the headers box of
// an existing server starts empty and replaces them all only when something is typed in it.
export function McpServerForm({ server, idPrefix, submitLabel, onSubmit }: { server?: McpServer; idPrefix: string; submitLabel: string; onSubmit: (body: McpServerBody) => Promise<void> }) {
  const [name, setName] = useState(server?.name ?? '');
  const [transport, setTransport] = useState<McpTransport>(server?.transport ?? 'stdio');
  const [command, setCommand] = useState(server?.command ?? '');
  const [args, setArgs] = useState((server?.args ?? []).join('\n'));
  const [env, setEnv] = useState(Object.entries(server?.env ?? {}).map(([k, v]) => `${k}=${v}`).join('\n'));
  const [url, setUrl] = useState(server?.url ?? '');
  const [headers, setHeaders] = useState('');
  const [approval, setApproval] = useState<McpApproval>(server?.approval ?? 'ask');
  const save = useAction();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void save.run(async () => {
      const body: McpServerBody =
        transport === 'stdio'
          ? { name: name.trim(), transport, command: command.trim(), args: lines(args), env: pairs(env, '=', 'Environment') }
          : { name: name.trim(), transport, url: url.trim(), ...(server?.transport === 'stdio' ? { command: null } : {}) };
      if (transport === 'http' && headers.trim()) body.headers = pairs(headers, ':', 'Headers');
      body.approval = approval;
      setHeaders('');
      await onSubmit(body);
    });
  };

  return (
    <form className="form" onSubmit={submit} aria-label={submitLabel}>
      <Field id={`${idPrefix}-name`} label="Name" required maxLength={MCP_SERVER_NAME_MAX_LENGTH} pattern={MCP_SERVER_NAME_PATTERN.slice(1, -1)} value={name} onChange={(e) => setName(e.target.value)} hint="Lower-case letters, digits and hyphens; its tools are offered as mcp__<name>__<tool>." />
      <div className="field">
        <label htmlFor={`${idPrefix}-transport`}>Transport</label>
        <select id={`${idPrefix}-transport`} value={transport} onChange={(e) => setTransport(e.target.value as McpTransport)}>
          <option value="stdio">stdio: a program in the workspace sandbox</option>
          <option value="http">http: a Streamable HTTP URL (through the egress proxy)</option>
        </select>
      </div>
      {transport === 'stdio' ? (
        <>
          <Field id={`${idPrefix}-command`} label="Command" required maxLength={MCP_COMMAND_MAX_LENGTH} placeholder="node" value={command} onChange={(e) => setCommand(e.target.value)} hint="Run without a shell in /workspace, inside the sandbox (no network unless the workspace has it)." />
          <TextArea id={`${idPrefix}-args`} label="Arguments, one per line" value={args} onChange={setArgs} placeholder="tools/my-server.js" />
          <TextArea id={`${idPrefix}-env`} label="Environment, NAME=value per line" value={env} onChange={setEnv} hint="Visible inside the sandbox: no secrets here." />
        </>
      ) : (
        <>
          <Field id={`${idPrefix}-url`} label="URL" required maxLength={MCP_URL_MAX_LENGTH} placeholder="https://mcp.example.org/mcp" value={url} onChange={(e) => setUrl(e.target.value)} hint="Reached only with the workspace's network access on and its host in the allowed hosts." />
          <TextArea
            id={`${idPrefix}-headers`}
            label={server?.headerNames.length ? `New headers, Name: value per line (set: ${server.headerNames.join(', ')})` : 'Headers, Name: value per line (optional)'}
            value={headers}
            onChange={setHeaders}
            secret
            hint="Stored encrypted and never shown again; sent by the server, never into the sandbox. Typing here replaces all stored headers."
          />
        </>
      )}
      <div className="field">
        <label htmlFor={`${idPrefix}-approval`}>Approval</label>
        <select id={`${idPrefix}-approval`} value={approval} onChange={(e) => setApproval(e.target.value as McpApproval)}>
          <option value="ask">Ask before each call (in sessions that ask for approval)</option>
          <option value="allow">Allow its tools without asking</option>
        </select>
      </div>
      <SubmitButton pending={save.pending} pendingLabel="Saving…">
        {submitLabel}
      </SubmitButton>
      <FormError message={save.error} />
    </form>
  );
}

function TextArea({ id, label, value, onChange, placeholder, hint, secret }: { id: string; label: string; value: string; onChange: (v: string) => void; placeholder?: string; hint?: string; secret?: boolean }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea id={id} name={id} rows={3} value={value} placeholder={placeholder} autoComplete="off" spellCheck={false} data-secret={secret ? 'true' : undefined} aria-describedby={hint ? `${id}-hint` : undefined} onChange={(e) => onChange(e.target.value)} />
      {hint ? (
        <p className="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
    </div>
  );
}
