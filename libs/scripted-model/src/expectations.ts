import type { ScenarioExpect } from './scenario';

// The request body as the client sent it (OpenAI wire format); only the fields read here.
export interface WireRequest {
  model?: string;
  messages?: Array<{ role?: string; content?: unknown; tool_calls?: unknown; reasoning_content?: unknown; tool_call_id?: unknown }>;
  tools?: Array<{ function?: { name?: string } }>;
  stream?: boolean;
  thinking?: { type?: string };
}

/** Whether the request runs in thinking mode, by DeepSeek's rules for the model names it knows. */
export function requestThinking(body: WireRequest): boolean {
  if (body.model === 'deepseek-reasoner') return true;
  if (body.model === 'deepseek-chat') return false;
  if (body.thinking?.type) return body.thinking.type === 'enabled';
  return typeof body.model === 'string' && body.model.startsWith('deepseek-v4');
}

export function messageText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((p) => (typeof p?.text === 'string' ? p.text : '')).join('');
  return '';
}

/** The data URLs of a message's image parts (OpenAI format: `{ type: 'image_url', image_url: { url } }`). */
function imageParts(content: unknown): string[] {
  if (!Array.isArray(content)) return [];
  return content.filter((p) => p?.type === 'image_url' && typeof p.image_url?.url === 'string').map((p) => p.image_url.url as string);
}

/** "WxH" of a PNG data URL (its IHDR), or what it is instead. */
function pngSize(url: string): string {
  const m = /^data:image\/png;base64,(.*)$/s.exec(url);
  if (!m) return 'not a PNG data URL';
  const b = Buffer.from(m[1].slice(0, 64), 'base64');
  if (b.subarray(1, 4).toString('latin1') !== 'PNG') return 'not a PNG';
  return `${b.readUInt32BE(16)}x${b.readUInt32BE(20)}`;
}

const list = (v: string | string[] | undefined): string[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
const clip = (s: string): string => (s.length > 160 ? `${s.slice(0, 160)}…` : s);

/** Every unmet expectation, as a sentence that says what was expected and what came. */
export function checkExpectations(expect: ScenarioExpect | undefined, body: WireRequest): string[] {
  if (!expect) return [];
  const failures: string[] = [];
  const messages = body.messages ?? [];
  const last = messages[messages.length - 1];
  if (expect.lastMessageRole && last?.role !== expect.lastMessageRole) {
    failures.push(`the last message should have role "${expect.lastMessageRole}" but has role "${last?.role ?? '(none)'}"`);
  }
  if (expect.lastMessageContains !== undefined) {
    // After a batch of tool calls the request ends with several tool results: any of them may match.
    const tail: string[] = [];
    // Tool results' images come as a user message right after them: part of the same batch.
    const start = imageParts(last?.content).length > 0 && messages[messages.length - 2]?.role === 'tool' ? messages.length - 2 : messages.length - 1;
    if (start < messages.length - 1) tail.push(messageText(last?.content));
    for (let i = start; i >= 0; i--) {
      tail.push(messageText(messages[i].content));
      if (messages[i].role !== 'tool' || messages[i - 1]?.role !== 'tool') break;
    }
    for (const needle of list(expect.lastMessageContains)) {
      if (!tail.some((t) => t.includes(needle))) {
        failures.push(`the last message should contain "${needle}" but was "${clip(tail[0] ?? '')}"`);
      }
    }
  }
  if (expect.lastImage) {
    const sizes = imageParts(last?.content).map(pngSize);
    const want = `${expect.lastImage.width}x${expect.lastImage.height}`;
    if (!sizes.includes(want)) failures.push(`the last message should carry a ${want} PNG image but carries [${sizes.join(', ')}]`);
  }
  const toolNames = (body.tools ?? []).map((t) => t.function?.name ?? '');
  for (const name of expect.toolsInclude ?? []) {
    if (!toolNames.includes(name)) failures.push(`the request should offer tool "${name}" but offers [${toolNames.join(', ')}]`);
  }
  const system = messages.filter((m) => m.role === 'system').map((m) => messageText(m.content)).join('\n');
  for (const needle of list(expect.systemContains)) {
    if (!system.includes(needle)) failures.push(`the system prompt should contain "${needle}"`);
  }
  const all = messages.map((m) => messageText(m.content)).join('\n');
  for (const needle of list(expect.messagesContain)) {
    if (!all.includes(needle)) failures.push(`the messages should contain "${needle}"`);
  }
  if (expect.thinking !== undefined && requestThinking(body) !== expect.thinking) {
    failures.push(`thinking mode should be ${expect.thinking ? 'on' : 'off'} but is ${expect.thinking ? 'off' : 'on'}`);
  }
  return failures;
}
