/**
 * The mirror property of the change feed (decisions §17, docs/api.md#events): after any sequence of API
 * operations, a mirror built **only** by folding the event feed (`GET /v1/event?after_sequence=N`) equals what
 * `GET` answers for every live record, and holds no record that `GET` answers 404 for.
 *
 * The fold, as an integrator would write it: `<resource>.created` / `.updated` set the record to `data`,
 * `.deleted` removes it; a note (`inquiry.text_history`, `contract.history`, `settlement.history`) is keyed by
 * its event's `parent`, so a note the feed places under the wrong record is a difference too;
 * `catalog.updated` (`data: {section, ids}`) marks catalog entries to refetch and touches no record.
 *
 * Used by test/suite/event-mirror.test.ts (fixed seed) and `npm run fuzz` (test/suite/fuzz-campaign.ts,
 * random seeds).
 */
import fc from 'fast-check';
import { upload } from '../../modules/file/file-helpers.ts';
import type { ApiClient, JsonResponse } from '../../setup/api-client.ts';
import type { TestApp } from '../../setup/build-test-app.ts';
import { openEventStream } from '../../setup/event-stream.ts';
import { newBusiness, type TestBusiness } from '../../setup/factories.ts';
import { CatalogError, importCatalog } from '../../../src/modules/catalog/catalog-import.ts';
import { isNoteKind, NOTE_PARENT, type Operation, operations, type RecordKind, resolveBody } from './operations.ts';

/** An event as the feed answers it (decisions §17: `sequence` and `parent` on every event). */
export interface FeedEvent {
  id: number;
  type: string;
  sequence: number;
  parent?: { type: string; id: number } | null;
  changedFields: string[];
  data: { id: number } & Record<string, unknown>;
}

/** A parent reference of a note. */
interface ParentRef {
  type: string;
  id: number;
}

/**
 * The business's events with a sequence greater than `after`, oldest first: every page of
 * `GET /v1/event?after_sequence=N`.
 * @throws Error when a page answers other than 200
 */
export async function readFeed(api: Pick<ApiClient, 'get'>, b: TestBusiness, after: number): Promise<FeedEvent[]> {
  const first = await api.get(b, `/v1/event?after_sequence=${after}&page_size=100`);
  return readPages(api, b, first);
}

/** The results of `first` and of every page after it (following `next`). */
async function readPages(api: Pick<ApiClient, 'get'>, b: TestBusiness, first: JsonResponse): Promise<FeedEvent[]> {
  const out: FeedEvent[] = [];
  let page = first;
  for (;;) {
    if (page.status !== 200) throw new Error(`GET /v1/event answered ${page.status}: ${JSON.stringify(page.body)}`);
    out.push(...(page.body.results as FeedEvent[]));
    if (!page.body.next) return out;
    const next = new URL(page.body.next as string);
    page = await api.get(b, `${next.pathname}${next.search}`);
  }
}

/** The mirror's key of a record: kind and id, and for a note its parent. */
export function mirrorKey(kind: string, id: number, parent?: ParentRef | null): string {
  return isNoteKind(kind)
    ? `${kind} ${id} (on ${parent ? `${parent.type} ${parent.id}` : 'no parent'})`
    : `${kind} ${id}`;
}

/** A copy of a full shape with what is not state removed: signed URLs' signature and expiry, a todo's `dDay`. */
export function comparable(kind: string, value: unknown): unknown {
  // Download URLs are re-signed each minute (docs/api.md#attachments): compare them without their signature.
  const v = JSON.parse(
    JSON.stringify(value).replace(/([?&])(expires|signature|X-Amz-[A-Za-z-]+)=[^&"]*/g, '$1$2=…'),
  ) as Record<string, unknown>;
  // `dDay` is `dueDate` minus today (docs/api.md#todos): it changes with the clock, not with a write.
  if (kind === 'todo') delete v.dDay;
  return v;
}

/** A mirror of one business, built only from its event feed. */
export class Mirror {
  /** Records by {@link mirrorKey}: the `data` of their last created / updated event. */
  readonly records = new Map<string, Record<string, unknown>>();
  /** Catalog entries to refetch, by catalog file section (from `catalog.updated`). */
  readonly catalog = new Map<string, Set<number>>();
  /** Problems of the feed itself (order, repeats, events without a parent). */
  readonly problems: string[] = [];
  private lastSequence = 0;
  private readonly seen = new Set<number>();

  constructor(
    private readonly api: Pick<ApiClient, 'get'>,
    private readonly b: TestBusiness,
  ) {}

  /** The last sequence folded (0 before any). */
  get last(): number {
    return this.lastSequence;
  }

  /** Reads the feed after the last sequence folded and folds it. */
  async sync(): Promise<void> {
    for (const e of await readFeed(this.api, this.b, this.lastSequence)) this.fold(e);
  }

  /** Folds one event (see the module comment). */
  fold(e: FeedEvent): void {
    if (!(e.sequence > this.lastSequence))
      this.problems.push(
        `event ${e.id} (${e.type}) has sequence ${e.sequence}, not above the last one folded (${this.lastSequence})`,
      );
    if (this.seen.has(e.id)) this.problems.push(`event ${e.id} (${e.type}) was read twice`);
    this.seen.add(e.id);
    this.lastSequence = Math.max(this.lastSequence, e.sequence);
    if (e.type === 'webhook.test') return;
    if (e.type === 'catalog.updated') {
      const { section, ids } = e.data as unknown as { section: string; ids: number[] };
      const entries = this.catalog.get(section) ?? new Set<number>();
      for (const id of ids) entries.add(id);
      this.catalog.set(section, entries);
      return;
    }
    const dot = e.type.lastIndexOf('.');
    const kind = e.type.slice(0, dot);
    const action = e.type.slice(dot + 1);
    if (isNoteKind(kind) && !e.parent)
      this.problems.push(`event ${e.id} (${e.type}) of note ${e.data.id} names no parent`);
    const key = mirrorKey(kind, e.data.id, e.parent);
    if (action === 'deleted') this.records.delete(key);
    else this.records.set(key, e.data);
  }
}

/** A record the operations created, with what its life depends on. */
interface Known {
  kind: RecordKind;
  id: number;
  /** A note's record. */
  parent?: ParentRef;
  /** The record whose delete takes this one with it (a note's parent, a settlement's contract, a todo's inquiry). */
  owner?: Known;
  gone: boolean;
}

/** The collection path of a kind (a note's under its parent). */
function collectionOf(kind: RecordKind, parent?: ParentRef, alias = false): string {
  switch (kind) {
    case 'estimate.item':
      return '/v1/estimate/item';
    case 'inquiry.text_history':
      return `/v1/inquiry/${parent!.id}/${alias ? 'history' : 'text_history'}`;
    case 'contract.history':
      return `/v1/contract/${parent!.id}/history`;
    case 'settlement.history':
      return `/v1/settlement/${parent!.id}/history`;
    default:
      return `/v1/${kind}`;
  }
}

/** Counts of answers by `<op> <kind> <status>`, summed over every case a process ran (coverage of the model). */
export const answerCounts = new Map<string, number>();

function count(what: string, status: number): void {
  const key = `${what} ${status}`;
  answerCounts.set(key, (answerCounts.get(key) ?? 0) + 1);
}

/** What one case needs. */
export interface MirrorContext {
  t: TestApp;
  api: ApiClient;
}

/**
 * Runs `ops` in a new business, then checks the mirror property; answers the problems found (empty when it
 * holds): records that differ, live records missing from the mirror, deleted or unknown records present in
 * it, catalog imports with no `catalog.updated`, and the feed's own problems.
 * @throws Error when an operation answers 5xx
 */
export async function runCase(
  ctx: MirrorContext,
  ops: readonly Operation[],
  options: RunCaseOptions = {},
): Promise<string[]> {
  const { t, api } = ctx;
  const b = await newBusiness(t);
  const mirror = new Mirror(api, b);
  const followers = options.live ? await followLive(api, b, options.live.port) : undefined;
  const known: Known[] = [];
  const catalogAdded: { section: string; id: number }[] = [];
  const live = (kind: RecordKind) => known.filter((r) => r.kind === kind && !r.gone);
  const pick = (kind: RecordKind, n: number): Known | undefined => {
    const l = live(kind);
    return l.length === 0 ? undefined : l[n % l.length];
  };
  const markGone = (r: Known) => {
    r.gone = true;
    for (const c of known) if (c.owner === r && !c.gone) markGone(c);
  };
  const urlOf = (r: Known, alias = false) => `${collectionOf(r.kind, r.parent, alias)}/${r.id}`;
  const checked = (what: string, res: JsonResponse) => {
    count(what, res.status);
    if (process.env.MIRROR_DEBUG && res.status === 400) console.error(what, JSON.stringify(res.body));
    if (res.status >= 500) throw new Error(`${what} answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res;
  };

  const found: string[] = [];
  for (const [i, o] of ops.entries()) {
    if (options.stepwise && i > 0 && ops[i - 1]!.op !== 'sync') {
      await mirror.sync();
      const problems = [
        ...mirror.problems.splice(0),
        ...(await compare(api, b, mirror, known, options.stepwise === 'collect')),
      ];
      found.push(...problems.map((p) => `after operation ${i - 1} ${describe(ops[i - 1]!)}: ${p}`));
      if (found.length > 0 && options.stepwise !== 'collect') return found;
    }
    switch (o.op) {
      case 'create': {
        let parent: Known | undefined;
        if (isNoteKind(o.kind)) {
          parent = pick(NOTE_PARENT[o.kind], o.parentPick ?? 0);
          if (!parent) break;
        }
        const body = resolveBody(o.body, b.ids, (k, n) => pick(k, n)?.id) as Record<string, any>;
        const parentRef = parent && { type: parent.kind, id: parent.id };
        const res = checked(`create ${o.kind}`, await api.post(b, collectionOf(o.kind, parentRef, o.alias), body));
        if (res.status !== 201) break;
        const ownerId = o.kind === 'settlement' ? body.contract?.id : o.kind === 'todo' ? body.inquiry?.id : undefined;
        const owner =
          parent ??
          known.find(
            (r) =>
              r.kind === (o.kind === 'settlement' ? 'contract' : 'inquiry') &&
              r.id === ownerId &&
              ownerId !== undefined,
          );
        known.push({ kind: o.kind, id: res.body.id as number, parent: parentRef, owner, gone: false });
        break;
      }
      case 'patch': {
        const r = pick(o.kind, o.pick);
        if (!r) break;
        const body = resolveBody(o.body, b.ids, (k, n) => pick(k, n)?.id);
        checked(`patch ${o.kind}`, await api.patch(b, urlOf(r, o.alias), body));
        break;
      }
      case 'delete': {
        const r = pick(o.kind, o.pick);
        if (!r) break;
        const res = checked(`delete ${o.kind}`, await api.delete(b, urlOf(r, o.alias)));
        if (res.status === 204) markGone(r);
        break;
      }
      case 'attach': {
        const r = pick('inquiry', o.pick);
        if (!r) break;
        const path = await upload(t.app, b, o.name);
        checked('attach inquiry', await api.patch(b, urlOf(r), { fileSet: [{ name: o.name, file: path }] }));
        break;
      }
      case 'detach': {
        const r = pick('inquiry', o.pick);
        if (!r) break;
        const files = (checked('get inquiry', await api.get(b, urlOf(r))).body?.fileSet ?? []) as { id: number }[];
        if (files.length === 0) break;
        checked('detach inquiry', await api.delete(b, `${urlOf(r)}/file/${files[o.filePick % files.length]!.id}`));
        break;
      }
      case 'catalog': {
        const key = `e${catalogAdded.length}`;
        const entry =
          o.section === 'positions' ? { key, title: o.title, symbolColor: '#123456' } : { key, title: o.title };
        try {
          // as `bizapi catalog import` runs it (src/cli/catalog.ts): into a business that exists, with events
          const ids = await importCatalog(t.testDb.db, b.businessId, { [o.section]: [entry] }, { events: true });
          const id = ids[o.section][key];
          if (id === undefined) throw new Error(`the catalog import answered no id for ${o.section}.${key}`);
          catalogAdded.push({ section: o.section, id });
          count(`catalog ${o.section}`, 200);
        } catch (err) {
          if (!(err instanceof CatalogError)) throw err;
          count(`catalog ${o.section}`, 400);
        }
        break;
      }
      case 'sync':
        await mirror.sync();
        break;
    }
  }
  await mirror.sync();
  const liveProblems = followers ? await followers.finish(mirror.last, (m) => compare(api, b, m, known)) : [];
  return [
    ...found,
    ...mirror.problems,
    ...(await compare(api, b, mirror, known)),
    ...missingCatalogEvents(mirror, catalogAdded),
    ...liveProblems,
  ];
}

/**
 * Two live followers of `b`'s feed from sequence 0: a long-poll loop (`GET /v1/event?after_sequence=N&wait=0.5`,
 * through `api`) and a stream (`GET /v1/event/stream` on 127.0.0.1:`port`), each folding into its own mirror.
 * `finish(last, check)` waits until both have folded `last` (10 s at most), stops them, and answers their
 * problems, each named by its follower: the feed's own (order, repeats) and `check`'s (the comparison with GET).
 */
async function followLive(
  api: ApiClient,
  b: TestBusiness,
  port: number,
): Promise<{ finish(last: number, check: (m: Mirror) => Promise<string[]>): Promise<string[]> }> {
  const polled = new Mirror(api, b);
  const streamed = new Mirror(api, b);
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const res = await api.get(b, `/v1/event?after_sequence=${polled.last}&wait=0.5&page_size=100`);
      if (res.status !== 200) throw new Error(`the long-poll answered ${res.status}: ${JSON.stringify(res.body)}`);
      for (const e of res.body.results as FeedEvent[]) polled.fold(e);
    }
  })();
  const stream = openEventStream(port, b, '/v1/event/stream?after_sequence=0');
  const status = (await stream.response).statusCode;
  if (status !== 200) throw new Error(`the stream answered ${status}`);
  let folded = 0;
  const foldStream = () => {
    for (; folded < stream.messages.length; folded++) streamed.fold(stream.messages[folded]!.data as FeedEvent);
  };
  return {
    async finish(last, check) {
      const deadline = Date.now() + 10_000;
      for (;;) {
        foldStream();
        if ((polled.last >= last && streamed.last >= last) || Date.now() > deadline) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      stopped = true;
      stream.close();
      await loop;
      const named = (who: string, m: Mirror, problems: string[]) => [
        ...(m.last < last ? [`${who}: reached sequence ${m.last}, not ${last}, in 10 s`] : []),
        ...[...m.problems, ...problems].map((p) => `${who}: ${p}`),
      ];
      return [...named('long-poll', polled, await check(polled)), ...named('stream', streamed, await check(streamed))];
    },
  };
}

/** Options of {@link runCase}. */
export interface RunCaseOptions {
  /**
   * Check the mirror after every operation, so that a difference names the operation that caused it (a
   * diagnosis: each step costs a `GET` of every record): `true` stops at the first operation with a
   * difference, `'collect'` notes it, sets the mirror to what `GET` answered, and goes on (every distinct
   * missing event of one sequence).
   */
  stepwise?: boolean | 'collect';
  /**
   * Also follow the feed live while the operations run (docs/api.md#following-the-feed-live): one mirror
   * folded from the long-poll (`wait`), one from the stream on the app listening at `port`; each must end
   * equal to the API's state too.
   */
  live?: { port: number };
}

/** An operation in a line: its kind and target (`patch inquiry {name, contract}`). */
function describe(o: Operation): string {
  if (o.op === 'create' || o.op === 'patch') return `${o.op} ${o.kind} {${Object.keys(o.body).join(', ')}}`;
  if (o.op === 'delete') return `delete ${o.kind}`;
  if (o.op === 'catalog') return `catalog import (${o.section})`;
  return o.op === 'sync' ? 'sync' : `${o.op} inquiry file`;
}

/** The differences between the mirror and what `GET` answers for every record the case created. */
async function compare(
  api: ApiClient,
  b: TestBusiness,
  mirror: Mirror,
  known: readonly Known[],
  repair = false,
): Promise<string[]> {
  const problems: string[] = [];
  const liveKeys = new Set<string>();
  for (const r of known) {
    const key = mirrorKey(r.kind, r.id, r.parent);
    const res = await api.get(b, `${collectionOf(r.kind, r.parent)}/${r.id}`);
    const mirrored = mirror.records.get(key);
    if (res.status === 404) {
      if (mirrored) problems.push(`${key}: deleted (GET 404), but the mirror still holds it`);
      if (repair) mirror.records.delete(key);
      continue;
    }
    if (res.status !== 200) throw new Error(`GET ${key} answered ${res.status}: ${JSON.stringify(res.body)}`);
    liveKeys.add(key);
    if (repair) mirror.records.set(key, res.body as Record<string, unknown>);
    if (!mirrored) {
      problems.push(`${key}: live (GET 200), but missing from the mirror`);
      continue;
    }
    const want = comparable(r.kind, res.body) as Record<string, unknown>;
    const got = comparable(r.kind, mirrored) as Record<string, unknown>;
    const keys = [...new Set([...Object.keys(want), ...Object.keys(got)])].filter(
      (k) => JSON.stringify(want[k]) !== JSON.stringify(got[k]),
    );
    if (keys.length > 0) {
      const show = (v: unknown) => (JSON.stringify(v) ?? 'undefined').slice(0, 300);
      problems.push(
        `${key}: the mirror differs from GET in ${keys.map((k) => `${k} (mirror ${show(got[k])}, GET ${show(want[k])})`).join('; ')}`,
      );
    }
  }
  for (const key of mirror.records.keys()) {
    if (liveKeys.has(key) || known.some((r) => mirrorKey(r.kind, r.id, r.parent) === key)) continue;
    problems.push(`${key}: in the mirror, but no such record was created`);
    if (repair) mirror.records.delete(key);
  }
  return problems;
}

/** Catalog entries the case imported whose section's `catalog.updated` never named them (decisions §17). */
function missingCatalogEvents(mirror: Mirror, added: readonly { section: string; id: number }[]): string[] {
  return added
    .filter((a) => !mirror.catalog.get(a.section)?.has(a.id))
    .map((a) => `catalog import of ${a.section} entry ${a.id}: no catalog.updated event names it`);
}

/** Options of {@link checkMirrorProperty}. */
export interface MirrorPropertyOptions {
  seed?: number;
  /** Random sequences, run after the examples (fast-check counts examples among its runs: they are added). */
  numRuns: number;
  /** Operations per case, at most. */
  maxOps?: number;
  /** Stop looking (and shrinking) after this many milliseconds; the failure found so far is reported. */
  timeLimitMs?: number;
  /** Sequences run first, before the random ones (fast-check `examples`), by name; a failing one is named. */
  examples?: Record<string, Operation[]>;
  /** Follow the feed live too ({@link RunCaseOptions.live}). */
  live?: { port: number };
}

/**
 * Checks the mirror property with fast-check: `numRuns` random operation sequences, each in a new business;
 * a failing sequence is shrunk and reported with its problems.
 * @throws Error (fast-check's report: seed, counterexample, problems) when the property fails
 */
export async function checkMirrorProperty(ctx: MirrorContext, options: MirrorPropertyOptions): Promise<void> {
  const examples = Object.entries(options.examples ?? {});
  const names = new Map(examples.map(([name, ops]) => [JSON.stringify(ops), name]));
  await fc.assert(
    fc.asyncProperty(operations(options.maxOps ?? 40), async (ops) => {
      const problems = await runCase(ctx, ops, { live: options.live });
      const name = names.get(JSON.stringify(ops));
      if (problems.length > 0) {
        throw new Error(
          `the mirror built from the feed is not the API's state${name ? ` (cascade: ${name})` : ''}:\n- ${problems.join('\n- ')}`,
        );
      }
    }),
    {
      seed: options.seed,
      numRuns: examples.length + options.numRuns,
      examples: examples.map(([, ops]) => [ops] as [Operation[]]),
      ...(options.timeLimitMs !== undefined && {
        interruptAfterTimeLimit: options.timeLimitMs,
        markInterruptAsFailure: false,
      }),
    },
  );
}
