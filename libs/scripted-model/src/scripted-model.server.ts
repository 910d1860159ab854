import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { anthropicError, anthropicFrame, anthropicFrames, anthropicMessage, anthropicToWire, anthropicUsage, ANTHROPIC_PATHS } from './anthropic-messages';
import { answerChunks, completionBody, usageChunk, usageFor, type ResponseMeta } from './chat-chunks';
import {
  CONVERSATION_HEADER,
  continuedConversation,
  conversationKey,
  firstUserMessage,
  hasAssistantMessage,
  missingReasoning,
  newConversation,
  SCENARIO_HEADER,
  type ConversationState,
} from './conversation';
import { bagOfWordsEmbedding, embeddingsResponse } from './embeddings';
import { demoAnswer, scriptedAnswer, thinkingDisabled } from './answers';
import { checkExpectations, type WireRequest } from './expectations';
import { header, maskHeaders, readBody, sendError, sendJson, waitOrClose } from './http-io';
import { promptUsage, renderPrompt } from './prompt-accounting';
import { agentScenario, isFirstAgentTurn, taskText } from './agents';
import { defaultFaultTimes, loadScenarioDir, parseScenario, type FaultSpec, type Scenario, type ScenarioTurn } from './scenario';

export interface ScriptedModelServerOptions {
  /** Default 0: a free port. */
  port?: number;
  /** Default 127.0.0.1 (loopback only). */
  host?: string;
  scenarios?: Scenario[];
  /** Load every *.json scenario in this directory. */
  scenarioDir?: string;
  /** Name of the scenario used when a request names none and matches none. */
  defaultScenario?: string;
  /** When set, any other bearer token gets DeepSeek's 401. */
  apiKey?: string;
  /** Faults for the next requests, whatever their scenario (see injectFault). */
  faults?: FaultSpec[];
  /** Answer unmatched requests with the labelled demo text (default true); false answers 404. */
  demo?: boolean;
  /** POST /v1/embeddings' vector for a text (default: a hashed bag of words, see embeddings.ts). */
  embed?: (text: string) => number[];
  /** Called once per recorded request when its response has been written out (or the client left). */
  onRequestEnd?: (request: RecordedRequest) => void;
}

export type RequestOutcome = 'pending' | 'completed' | 'client_closed' | 'dropped' | 'error';

export interface RecordedRequest {
  /** 1-based, in arrival order. */
  seq: number;
  receivedAt: number;
  /**
   * High-resolution epoch milliseconds (performance.timeOrigin + now) when the handler started and
   * when the response was flushed or the client went away: the model's own time, comparable with
   * other processes' clocks on the same host (benchmarks subtract it from end-to-end times).
   */
  startedAtMs: number;
  endedAtMs?: number;
  method: string;
  path: string;
  /** Request headers, authorization masked. */
  headers: Record<string, string>;
  /** The full JSON body as received (undefined for GET or unparsable bodies). */
  body: any;
  scenario: string | null;
  /** `header:<x-conversation-id>`, else `auto:<scenario and first message digest>#<tag>` (one per conversation). */
  conversation: string | null;
  /** The request's first user message (a sub-agent's: its task, agents.ts): how a test finds a header-less conversation. */
  firstUserMessage: string | null;
  /** The scenario turn (0-based) this request was matched against. */
  turn: number | null;
  promptTokens: number;
  cacheHitTokens: number;
  /** Share of this prompt that repeats the conversation's previous answered prompt as a prefix. */
  prefixShare: number;
  fault?: FaultSpec['type'];
  status: number;
  outcome: RequestOutcome;
  /** Unmet `expect` entries, unknown scenario, exhausted scenario, or missing reasoning_content. */
  failures: string[];
}

export interface ScriptedModelServer {
  /** OpenAI-compatible base URL, e.g. http://127.0.0.1:4010/v1 (give it to DeepSeekProvider as baseUrl). */
  readonly url: string;
  readonly origin: string;
  readonly port: number;
  /** Every request received, live. */
  readonly requests: RecordedRequest[];
  /** Every scripting failure, as a readable sentence naming scenario, turn and request. */
  readonly failures: string[];
  /** Registers a scenario (object or parsed JSON) and, unless makeDefault is false, makes it the default. */
  load(scenario: Scenario | unknown, options?: { makeDefault?: boolean }): Scenario;
  loadDir(dir: string): Scenario[];
  scenarios(): string[];
  /** The next request(s) of any conversation get this fault (`times`, default 1). */
  injectFault(fault: FaultSpec): void;
  /** Forgets requests, failures, conversations and pending global faults; keeps scenarios. */
  reset(): void;
  /** Resolves once `predicate` holds (polled), rejects after timeoutMs. */
  waitFor(predicate: () => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

interface PendingFault {
  fault: FaultSpec;
  remaining: number;
}


const hrNow = (): number => performance.timeOrigin + performance.now();

export async function startScriptedModelServer(options: ScriptedModelServerOptions = {}): Promise<ScriptedModelServer> {
  const registry = new Map<string, Scenario>();
  const conversations = new Map<string, ConversationState>();
  const byTag = new Map<string, ConversationState>();
  let conversationCounter = 0;
  const requests: RecordedRequest[] = [];
  const failures: string[] = [];
  const globalFaults: PendingFault[] = [];
  const sockets = new Set<Socket>();
  let defaultScenario = options.defaultScenario;
  let responseCounter = 0;

  const load = (scenario: unknown, opts: { makeDefault?: boolean } = {}): Scenario => {
    const parsed = parseScenario(scenario);
    registry.set(parsed.name, parsed);
    if (opts.makeDefault !== false) defaultScenario = parsed.name;
    return parsed;
  };
  const loadDir = (dir: string): Scenario[] => loadScenarioDir(dir).map((s) => load(s, { makeDefault: false }));
  if (options.scenarioDir) loadDir(options.scenarioDir);
  for (const s of options.scenarios ?? []) load(s, { makeDefault: false });
  for (const f of options.faults ?? []) globalFaults.push({ fault: f, remaining: defaultFaultTimes(f) });

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: Error) => {
      if (!res.headersSent) sendError(res, 500, `scripted-model internal error: ${err.message}`, 'server_error');
      else res.destroy();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0];
    // Health checks (scripts waiting for the server) are not recorded: they are not model traffic.
    if (req.method === 'GET' && path === '/health') {
      sendJson(res, 200, { status: 'ok', scenarios: [...registry.keys()] });
      return;
    }
    const record: RecordedRequest = {
      seq: requests.length + 1, receivedAt: Date.now(), startedAtMs: hrNow(), method: req.method ?? 'GET', path,
      headers: maskHeaders(req), body: undefined, scenario: null, conversation: null, firstUserMessage: null, turn: null,
      promptTokens: 0, cacheHitTokens: 0, prefixShare: 0, status: 0, outcome: 'pending', failures: [],
    };
    requests.push(record);
    const ended = (): void => {
      if (record.endedAtMs !== undefined) return;
      record.endedAtMs = hrNow();
      options.onRequestEnd?.(record);
    };
    res.once('finish', ended);
    res.once('close', ended);
    // A first turn stops counting as open the moment its answer is decided, not when the socket's
    // close event comes: a client may retry before that event, and its retry is the same turn.
    let releaseFirstTurn = (): void => undefined;
    // Anthropic's Messages API (Claude Code): same scenarios, its own request, answer and error shapes.
    const anthropic = req.method === 'POST' && ANTHROPIC_PATHS.has(path);
    const fail = (status: number, message: string, type: string): void => {
      releaseFirstTurn();
      record.status = status;
      record.outcome = 'error';
      if (anthropic) sendJson(res, status, anthropicError(type, message));
      else sendError(res, status, message, type);
    };

    const givenKey = anthropic && req.headers['x-api-key'] !== undefined ? `Bearer ${header(req, 'x-api-key')}` : req.headers.authorization;
    if (options.apiKey !== undefined && givenKey !== `Bearer ${options.apiKey}`) {
      const given = (givenKey ?? '').replace(/^Bearer\s+/i, '');
      return fail(401, `Authentication Fails, Your api key: ****${given.slice(-4)} is invalid`, 'authentication_error');
    }
    if (req.method === 'GET' && (path === '/v1/models' || path === '/models')) {
      record.status = 200;
      record.outcome = 'completed';
      sendJson(res, 200, { object: 'list', data: modelList() });
      return;
    }
    if (req.method === 'POST' && (path === '/v1/embeddings' || path === '/embeddings')) {
      let raw: unknown;
      try {
        raw = JSON.parse(await readBody(req));
      } catch (err) {
        return fail(400, `The request body is not valid JSON: ${(err as Error).message}`, 'invalid_request_error');
      }
      record.body = raw;
      const answer = embeddingsResponse(raw, options.embed ?? bagOfWordsEmbedding);
      if (!answer.ok) return fail(400, answer.message, 'invalid_request_error');
      record.status = 200;
      record.outcome = 'completed';
      sendJson(res, 200, answer.body);
      return;
    }
    if (!anthropic && (req.method !== 'POST' || (path !== '/v1/chat/completions' && path !== '/chat/completions'))) {
      return fail(404, `scripted-model serves POST /v1/chat/completions, POST /v1/messages, POST /v1/embeddings and GET /v1/models, not ${req.method} ${path}`, 'not_found');
    }
    let body: WireRequest;
    try {
      const raw: unknown = JSON.parse(await readBody(req));
      record.body = raw;
      body = anthropic ? anthropicToWire(raw) : (raw as WireRequest);
    } catch (err) {
      return fail(400, `The request body is not valid JSON: ${(err as Error).message}`, 'invalid_request_error');
    }
    if (!Array.isArray(body.messages) || body.messages.length === 0) {
      return fail(400, 'messages must be a non-empty array', 'invalid_request_error');
    }

    const named = header(req, SCENARIO_HEADER) ?? (body.model?.startsWith('scripted:') ? body.model.slice('scripted:'.length) : undefined);
    if (named !== undefined && !registry.has(named)) {
      const msg = `unknown scenario "${named}" (loaded: ${[...registry.keys()].join(', ') || 'none'})`;
      record.failures.push(msg);
      failures.push(`request #${record.seq}: ${msg}`);
      return fail(400, `scripted-model: ${msg}`, 'invalid_request_error');
    }
    const chosen = named !== undefined ? registry.get(named) : selectScenario(body);
    // A sub-agent of the scenario's agent answers from its own script, as its own conversation.
    const agent = chosen ? agentScenario(chosen, body) : undefined;
    const scenario = agent ?? chosen;
    if (!scenario && options.demo === false) {
      return fail(404, 'scripted-model: no scenario matches this request and the demo model is off', 'not_found');
    }
    const namedConversation = header(req, CONVERSATION_HEADER);
    const key = conversationKey(namedConversation, scenario?.name ?? null, body, agent ? taskText(body) : undefined);
    const firstTurn = agent ? isFirstAgentTurn(body) : !hasAssistantMessage(body);
    let state = namedConversation ? conversations.get(key) : (continuedConversation(body, byTag) ?? conversations.get(key));
    // A request without any assistant message starts the conversation over (e.g. the next run
    // of a benchmark with the same prompt), unless it is a retry of the very first turn. Without a
    // header, a first turn that arrives while another is open is a concurrent conversation.
    if (!state || (firstTurn && (state.cursor > 0 || (!namedConversation && state.openFirstTurns > 0)))) {
      state = newConversation(key, scenario?.name ?? null, `c${++conversationCounter}`);
      conversations.set(key, state);
      byTag.set(state.tag, state);
    }
    if (firstTurn && !namedConversation) {
      const opened = state;
      opened.openFirstTurns++;
      let released = false;
      releaseFirstTurn = () => {
        if (!released) opened.openFirstTurns--;
        released = true;
      };
      res.on('close', () => releaseFirstTurn());
    }
    record.scenario = scenario?.name ?? null;
    record.conversation = namedConversation ? key : `${key}#${state.tag}`;
    record.firstUserMessage = agent ? taskText(body) : firstUserMessage(body);
    const prompt = renderPrompt(body);
    const usage = promptUsage(prompt, state.lastPrompt);
    record.promptTokens = usage.promptTokens;
    record.cacheHitTokens = usage.cacheHitTokens;
    record.prefixShare = usage.prefixShare;

    const where = `scenario "${scenario?.name ?? '(demo)'}" turn ${state.cursor + 1} (request #${record.seq})`;
    const scriptFailure = (messages: string[]): void => {
      record.failures.push(...messages);
      failures.push(...messages.map((m) => `${where}: ${m}`));
      fail(400, `scripted-model: ${where}: ${messages.join('; ')}`, 'invalid_request_error');
    };
    const unreturned = missingReasoning(body, state);
    if (unreturned.length > 0 && !thinkingDisabled(body)) {
      return scriptFailure([
        `the reasoning_content of the assistant message with tool call(s) ${unreturned.join(', ')} was not passed back ` +
          '(DeepSeek answers 400 to this in thinking mode)',
      ]);
    }
    let turn: ScenarioTurn | undefined;
    if (scenario) {
      record.turn = state.cursor;
      turn = scenario.turns[state.cursor];
      if (!turn) return scriptFailure([`the scenario has only ${scenario.turns.length} turn(s); no answer is scripted for this request`]);
      const unmet = checkExpectations(turn.expect, body);
      if (unmet.length > 0) return scriptFailure(unmet);
    }

    const attempt = (state.attempts.get(state.cursor) ?? 0) + 1;
    state.attempts.set(state.cursor, attempt);
    const fault = takeGlobalFault() ?? (turn?.fault && attempt <= defaultFaultTimes(turn.fault) ? turn.fault : undefined);
    record.fault = fault?.type;
    if (fault?.type === 'rate_limit') {
      res.setHeader('retry-after', String(fault.retryAfterSeconds ?? 1));
      return fail(429, 'Rate limit reached for requests (scripted fault)', 'rate_limit_error');
    }
    if (fault?.type === 'server_error') return fail(fault.status ?? 500, 'The server had an error while processing your request (scripted fault)', 'server_error');
    if (fault?.type === 'context_length') {
      return fail(400, `This model's maximum context length is 131072 tokens. However, you requested ${usage.promptTokens + 200000} tokens (scripted fault).`, 'invalid_request_error');
    }

    const answer = turn ? scriptedAnswer(turn, state, body) : demoAnswer(body);
    const meta: ResponseMeta = { id: `${anthropic ? 'msg' : 'chatcmpl'}-scripted-${++responseCounter}`, created: Math.floor(Date.now() / 1000), model: body.model ?? 'scripted' };
    const wireUsage = usageFor(answer, usage);
    const messagesUsage = anthropicUsage(answer, usage, record.body);
    const onAnswered = (): void => {
      state.cursor += turn ? 1 : 0;
      state.lastPrompt = prompt;
      if (answer.thinking) for (const c of answer.toolCalls) state.reasoningCallIds.add(c.id);
    };
    res.on('close', () => {
      if (record.outcome === 'pending') record.outcome = 'client_closed';
    });
    if (!body.stream) {
      record.status = 200;
      if (fault?.type === 'hang' || fault?.type === 'drop') return endWithFault(req, res, record, fault, [], releaseFirstTurn, anthropic);
      if (fault?.type === 'stream_error') return fail(500, 'Server overloaded, please retry (scripted fault)', 'server_error');
      if (fault?.type === 'queued') await waitOrClose(res, fault.forMs);
      if (record.outcome === 'client_closed') return;
      sendJson(res, 200, anthropic ? anthropicMessage(answer, meta, messagesUsage) : completionBody(answer, meta, wireUsage));
      record.outcome = 'completed';
      onAnswered();
      return;
    }
    const frames = anthropic
      ? anthropicFrames(answer, meta, messagesUsage)
      : [...answerChunks(answer, meta), usageChunk(meta, wireUsage)].map((c) => `data: ${JSON.stringify(c)}\n\n`);
    record.status = 200;
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' });
    let closed = false;
    res.on('close', () => {
      closed = true;
    });
    if (fault?.type === 'hang' || fault?.type === 'drop' || fault?.type === 'stream_error') return endWithFault(req, res, record, fault, frames, releaseFirstTurn, anthropic);
    if (fault?.type === 'queued') {
      const until = Date.now() + fault.forMs;
      while (!closed && Date.now() < until) {
        res.write(': keep-alive\n\n');
        await waitOrClose(res, Math.min(fault.keepAliveMs ?? 1000, Math.max(1, until - Date.now())));
      }
    }
    const delay = fault?.type === 'slow' ? fault.chunkDelayMs : 0;
    for (const frame of frames) {
      if (closed) return;
      res.write(frame);
      if (delay > 0) await waitOrClose(res, delay);
    }
    if (closed) return;
    res.end(anthropic ? '' : 'data: [DONE]\n\n');
    record.outcome = 'completed';
    onAnswered();
  }

  function endWithFault(
    req: IncomingMessage,
    res: ServerResponse,
    record: RecordedRequest,
    fault: FaultSpec,
    frames: string[],
    releaseFirstTurn: () => void,
    anthropic: boolean,
  ): void {
    const after = fault.type === 'drop' || fault.type === 'stream_error' ? (fault.afterChunks ?? 2) : fault.type === 'hang' ? fault.afterChunks : undefined;
    if (after !== undefined) for (const frame of frames.slice(0, after)) res.write(frame);
    if (fault.type === 'stream_error' || fault.type === 'drop') releaseFirstTurn();
    if (fault.type === 'stream_error') {
      record.outcome = 'error';
      const message = 'Server overloaded, please retry (scripted fault)';
      res.end(anthropic ? anthropicFrame('error', { error: { type: 'overloaded_error', message } }) : `data: ${JSON.stringify({ error: { message, type: 'server_error' } })}\n\n`);
    }
    if (fault.type === 'drop') {
      record.outcome = 'dropped';
      // Closing the socket mid-body is what a crashed proxy looks like. end() rather than
      // destroy() so the chunks already written reach the client before the connection goes.
      res.write('', () => req.socket.end());
      req.socket.setTimeout(1000, () => req.socket.destroy());
    }
    // 'hang': say nothing more; the client's timeout or abort ends it (outcome becomes client_closed).
  }

  function takeGlobalFault(): FaultSpec | undefined {
    const pending = globalFaults[0];
    if (!pending) return undefined;
    if (--pending.remaining <= 0) globalFaults.shift();
    return pending.fault;
  }

  function selectScenario(body: WireRequest): Scenario | undefined {
    const first = firstUserMessage(body);
    for (const s of registry.values()) {
      if (s.match && first.includes(s.match.firstUserMessageContains)) return s;
    }
    return defaultScenario ? registry.get(defaultScenario) : undefined;
  }

  function modelList(): Array<Record<string, unknown>> {
    const ids = ['scripted-demo', ...[...registry.keys()].map((n) => `scripted:${n}`)];
    return ids.map((id) => ({ id, object: 'model', created: 0, owned_by: 'h-scripted-model' }));
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const origin = `http://${host}:${address.port}`;

  return {
    url: `${origin}/v1`,
    origin,
    port: address.port,
    requests,
    failures,
    load,
    loadDir,
    scenarios: () => [...registry.keys()],
    injectFault: (fault) => {
      globalFaults.push({ fault, remaining: defaultFaultTimes(fault) });
    },
    reset: () => {
      requests.length = 0;
      failures.length = 0;
      globalFaults.length = 0;
      conversations.clear();
      byTag.clear();
    },
    waitFor: async (predicate, timeoutMs = 5000) => {
      const deadline = Date.now() + timeoutMs;
      while (!predicate()) {
        if (Date.now() > deadline) throw new Error(`scripted-model: condition not met within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 5));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
