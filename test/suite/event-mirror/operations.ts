/**
 * The operations of the mirror property (test/suite/event-mirror.test.ts, decisions §17, docs/api.md#events):
 * fast-check arbitraries of API writes across every resource — creates, PATCHes of every writable property,
 * deletes, links and unlinks (inquiry ↔ contract, inquiry / contract → client, project → contract, todos,
 * settlements), notes of inquiries, contracts and settlements, file attachments, catalog imports — as plain
 * data, so that a failing sequence prints readably and shrinks.
 *
 * An operation names its targets symbolically: `pick` chooses among the live records of a kind when the
 * operation runs (index modulo their number), `{$ref: kind, pick}` in a body becomes `{id}` of such a record
 * (or `null` when there is none), `{$cat: section, key}` the id of a catalog entry of the test catalog
 * (test/setup/factories.ts `testCatalog`) as `{id}`, and `{$catId: section, key}` the bare id. See
 * {@link resolveBody}.
 */
import fc from 'fast-check';
import type { CatalogIds } from '../../../src/modules/catalog/catalog-import.ts';

/** The record kinds that emit events, named as their event types name them (docs/api.md#events). */
export const RECORD_KINDS = [
  'client',
  'inquiry',
  'contract',
  'settlement',
  'project',
  'worker',
  'todo',
  'estimate.item',
  'inquiry.text_history',
  'contract.history',
  'settlement.history',
] as const;

/** A record kind. */
export type RecordKind = (typeof RECORD_KINDS)[number];

/** The note kinds and the kind of their parent (decisions §17: `parent` of note events). */
export const NOTE_PARENT = {
  'inquiry.text_history': 'inquiry',
  'contract.history': 'contract',
  'settlement.history': 'settlement',
} as const satisfies Partial<Record<RecordKind, RecordKind>>;

/** A note kind. */
export type NoteKind = keyof typeof NOTE_PARENT;

/** Whether `kind` is a note kind. */
export function isNoteKind(kind: string): kind is NoteKind {
  return kind in NOTE_PARENT;
}

/** A catalog section the `catalog` operation adds an entry to (a section of the catalog file). */
export type CatalogSection = 'clientStatuses' | 'contractCategories' | 'estimateItemClassifications' | 'positions';

/** One API operation of a generated sequence (see the module comment for `pick` and the body placeholders). */
export type Operation =
  | { op: 'create'; kind: RecordKind; body: Record<string, unknown>; parentPick?: number; alias?: boolean }
  | { op: 'patch'; kind: RecordKind; pick: number; body: Record<string, unknown>; alias?: boolean }
  | { op: 'delete'; kind: RecordKind; pick: number; alias?: boolean }
  | { op: 'attach'; pick: number; name: string }
  | { op: 'detach'; pick: number; filePick: number }
  | { op: 'catalog'; section: CatalogSection; title: string }
  | { op: 'sync' };

// ── values ──

/** Text with something besides white space (the API trims, and refuses a blank required value). */
const text = (max: number) =>
  fc.string({ minLength: 1, maxLength: Math.min(max, 12) }).filter((s) => s.trim().length > 0);
const optText = (max: number) => fc.option(text(max), { nil: null });
const day = fc.integer({ min: 1, max: 28 }).map((d) => String(d).padStart(2, '0'));
const month = (from: number, to: number) => fc.integer({ min: from, max: to }).map((m) => String(m).padStart(2, '0'));
/** A date of 2026 in months `from..to`, `YYYY-MM-DD`. */
const date = (from = 1, to = 12) => fc.tuple(month(from, to), day).map(([m, d]) => `2026-${m}-${d}`);
const optDate = fc.option(date(), { nil: null });
const dateTime = fc
  .tuple(date(), fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
  .map(([d, h, m]) => `${d}T${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}:00.000Z`);
const email = fc.constantFrom('ap@acme.example', 'kim@example.com', 'ops@sample.org');
const decimal = fc.oneof(
  fc.integer({ min: -1000, max: 10_000_000 }),
  fc
    .tuple(fc.integer({ min: 0, max: 99_999 }), fc.integer({ min: 0, max: 99 }))
    .map(([i, c]) => `${i}.${String(c).padStart(2, '0')}`),
);
const amount = fc.integer({ min: 0, max: 1_000_000_000 });

/** `{id}` of a record of `kind` picked when the operation runs (`null` when there is none). */
const ref = (kind: RecordKind) => fc.nat(50).map((pick) => ({ $ref: kind, pick }));
/** `{id}` of the test catalog's entry `key` of `section`. */
const cat = (section: keyof CatalogIds, keys: string[]) =>
  fc.constantFrom(...keys).map((key) => ({ $cat: section, key }));
const member = cat('members', ['kim', 'lee', 'park']);
const members = fc
  .uniqueArray(fc.constantFrom('kim', 'lee', 'park'), { maxLength: 3 })
  .map((keys) => keys.map((key) => ({ $cat: 'members', key })));
const fieldValue = (key: string, value: fc.Arbitrary<unknown>) =>
  value.map((v) => ({ field: { id: { $catId: 'fields', key } }, value: v }));

/** `fieldSet` entries of kind `C` (every data type of the test catalog), `I` or `CO`; `''` clears a field. */
const CLIENT_FIELDS = [
  fieldValue('channel', fc.constantFrom('web', 'phone', '')),
  fieldValue('tags', fc.constantFrom('a', 'b', 'a,b', '')),
  fieldValue(
    'owner',
    fc.constantFrom('kim', 'lee').map((key) => ({ $catIdString: 'members', key })),
  ),
  fieldValue('employees', fc.oneof(fc.integer({ min: 0, max: 500 }), fc.constant(''))),
  fieldValue('since', fc.oneof(date(), fc.constant(''))),
  fieldValue('vip', fc.oneof(fc.boolean(), fc.constant(''))),
  fieldValue('note', fc.oneof(text(50), fc.constant(''))),
];
const clientFields = fc.subarray(CLIENT_FIELDS, { maxLength: 3 }).chain((which) => fc.tuple(...which));
const inquiryFields = fc.array(fieldValue('budget', fc.oneof(fc.integer({ min: 0, max: 10_000 }), fc.constant(''))), {
  maxLength: 1,
});
const contractFields = fc.array(fieldValue('po', fc.oneof(text(20), fc.constant(''))), { maxLength: 1 });

// ── properties by kind (every writable property; `requiredKeys` picks the create's required ones) ──

const clientProps = {
  companyName: text(128),
  status: fc.option(cat('clientStatuses', ['lead', 'customer']), { nil: null }),
  inCharge: optText(64),
  position: optText(64),
  contact: optText(128),
  email: fc.option(email, { nil: null }),
  content: optText(10_000),
  businessRegistrationNumber: optText(16),
  ceoName: optText(64),
  companyAddress: optText(256),
  companyDetailAddress: optText(256),
  businessType: optText(64),
  businessClass: optText(64),
  branchNumber: fc.option(fc.string({ minLength: 1, maxLength: 4 }), { nil: null }),
  taxInvoiceEmail: fc.option(email, { nil: null }),
  fieldSet: clientFields,
  isHidden: fc.boolean(),
};

const inquiryProps = {
  status: cat('statuses', ['new', 'won', 'lost']),
  name: text(64),
  inquiryDate: date(),
  client: fc.option(ref('client'), { nil: null }),
  content: optText(20_000),
  estimate: fc.option(decimal, { nil: null }),
  funnel: fc.option(
    fc.record(
      {
        utmCampaign: optText(256),
        utmSource: optText(256),
        utmMedium: optText(256),
        utmContent: optText(256),
        utmTerm: optText(256),
        guestUid: optText(256),
        gclid: optText(256),
      },
      { requiredKeys: [], noNullPrototype: true },
    ),
    { nil: null },
  ),
  workSet: fc.array(fc.record({ name: text(256) }), { maxLength: 3 }),
  inChargeSet: members,
  fieldSet: inquiryFields,
  fileLinkSet: fc.array(
    fc.record({ text: text(256), link: fc.constantFrom('https://example.com/a', 'https://example.org/b?c=1') }),
    { maxLength: 2 },
  ),
  isHidden: fc.boolean(),
  contract: fc.option(ref('contract'), { nil: null }),
};

/** Recurring settings, valid only with `type: 'S'` (docs/api.md#contracts); sent together so most are accepted. */
const recurring = fc.record({
  type: fc.constant('S'),
  settlementFrequency: fc.integer({ min: 1, max: 12 }),
  settlementCycle: fc.constant('M'),
  settlementDay: fc.integer({ min: 1, max: 28 }),
});

const contractProps = {
  title: text(128),
  amount,
  type: fc.constantFrom('I', 'G', 'S'),
  status: fc.constantFrom('P', 'I', 'C', 'T'),
  contractNumber: optText(128),
  startDate: date(1, 6),
  endDate: date(7, 12),
  vatType: fc.constantFrom('E', 'I', 'N'),
  inquiry: fc.option(ref('inquiry'), { nil: null }),
  client: fc.option(ref('client'), { nil: null }),
  categorySet: fc
    .uniqueArray(fc.constantFrom('web', 'design'), { maxLength: 2 })
    .map((keys) => keys.map((key) => ({ $cat: 'contractCategories', key }))),
  fieldSet: contractFields,
  isHidden: fc.boolean(),
};

const settlementProps = {
  title: text(128),
  amount,
  additionalAmount: amount,
  vat: amount,
  dueDate: optDate,
  settledDate: optDate,
  isTaxInvoiceIssued: fc.boolean(),
  isTaxInvoiceNeeded: fc.boolean(),
  taxInvoiceIssuedDate: optDate,
  taxInvoiceIssueDueDate: optDate,
  inChargeSet: members,
  isHidden: fc.boolean(),
};

const projectProps = {
  title: text(128),
  contract: fc.option(ref('contract'), { nil: null }),
  status: fc.constantFrom('U', 'I', 'A', 'E'),
  symbolColor: fc.option(fc.constantFrom('#2f80ed', 'red', 'teal'), { nil: null }),
  startDate: optDate,
  endDate: optDate,
  isHidden: fc.boolean(),
};

const workerProps = {
  name: text(32),
  position: fc.option(cat('positions', ['dev']), { nil: null }),
  order: fc.integer({ min: 0, max: 1000 }),
  isHidden: fc.boolean(),
  manMonthAmount: fc.integer({ min: 0, max: 10_000_000 }),
};

const todoProps = {
  type: fc.constantFrom('M', 'CA', 'MS', 'E'),
  dueDate: date(),
  action: text(2048),
  inCharge: fc.option(member, { nil: null }),
  dueTime: fc.option(fc.constantFrom('09:30', '18:00:00', '07:05:09'), { nil: null }),
  actionHistory: optText(200),
};

const estimateItemProps = {
  title: text(256),
  unitCost: decimal,
  unit: fc.constantFrom('식', 'EA', 'M/M'),
  description: optText(2048),
  classification: fc.option(cat('estimateItemClassifications', ['design', 'dev']), { nil: null }),
};

const noteProps = { content: text(5000), created: dateTime };

const create = (
  kind: RecordKind,
  props: Record<string, fc.Arbitrary<unknown>>,
  requiredKeys: string[],
  extra: Record<string, fc.Arbitrary<unknown>> = {},
) =>
  fc
    .record({ ...props, ...extra }, { requiredKeys: [...requiredKeys, ...Object.keys(extra)], noNullPrototype: true })
    .map((body): Operation => ({ op: 'create', kind, body }));
const patch = (kind: RecordKind, props: Record<string, fc.Arbitrary<unknown>>) =>
  fc
    .tuple(fc.nat(50), fc.record(props, { requiredKeys: [], noNullPrototype: true }))
    .map(([pick, body]): Operation => ({ op: 'patch', kind, pick, body }));
const remove = (kind: RecordKind) => fc.nat(50).map((pick): Operation => ({ op: 'delete', kind, pick }));
const noteOps = (kind: NoteKind): fc.Arbitrary<Operation>[] => [
  fc
    .tuple(
      fc.nat(50),
      fc.record(
        { ...noteProps, member: fc.option(member, { nil: null }) },
        { requiredKeys: ['content'], noNullPrototype: true },
      ),
      fc.boolean(),
    )
    .map(([parentPick, body, alias]): Operation => ({
      op: 'create',
      kind,
      parentPick,
      body,
      ...(kind === 'inquiry.text_history' && alias && { alias }),
    })),
  patch(kind, noteProps),
  remove(kind),
];

/** Weighted operations: creates more often early records exist to link; every kind patched and deleted. */
const operation: fc.Arbitrary<Operation> = fc.oneof(
  { weight: 4, arbitrary: create('client', clientProps, ['companyName']) },
  { weight: 5, arbitrary: patch('client', clientProps) },
  { weight: 1, arbitrary: remove('client') },
  { weight: 4, arbitrary: create('inquiry', inquiryProps, []) },
  { weight: 6, arbitrary: patch('inquiry', inquiryProps) },
  { weight: 1, arbitrary: remove('inquiry') },
  {
    weight: 4,
    arbitrary: create('contract', { ...contractProps, type: fc.constantFrom('I', 'G') }, [
      'title',
      'amount',
      'type',
      'startDate',
      'endDate',
    ]),
  },
  {
    weight: 1,
    arbitrary: create('contract', contractProps, ['title', 'amount', 'startDate', 'endDate'], { recurring }).map(
      flattenRecurring,
    ),
  },
  { weight: 6, arbitrary: patch('contract', contractProps) },
  { weight: 1, arbitrary: patch('contract', { recurring }).map(flattenRecurring) },
  { weight: 1, arbitrary: remove('contract') },
  {
    weight: 3,
    arbitrary: create('settlement', settlementProps, ['title', 'amount', 'additionalAmount', 'vat'], {
      contract: ref('contract'),
      type: cat('settlementTypes', ['ini', 'sub', 'sub']),
    }),
  },
  { weight: 3, arbitrary: patch('settlement', { ...settlementProps, status: fc.constantFrom('C', 'D', 'S', 'P') }) },
  { weight: 1, arbitrary: remove('settlement') },
  { weight: 2, arbitrary: create('project', projectProps, ['title']) },
  { weight: 2, arbitrary: patch('project', { ...projectProps, actualEndDate: optDate }) },
  { weight: 1, arbitrary: remove('project') },
  { weight: 2, arbitrary: create('worker', workerProps, ['name']) },
  { weight: 2, arbitrary: patch('worker', workerProps) },
  { weight: 1, arbitrary: remove('worker') },
  { weight: 2, arbitrary: create('todo', todoProps, ['type', 'dueDate', 'action'], { inquiry: ref('inquiry') }) },
  {
    weight: 3,
    arbitrary: patch('todo', {
      ...todoProps,
      isComplete: fc.boolean(),
      completedAt: fc.option(dateTime, { nil: null }),
      completedInCharge: fc.option(member, { nil: null }),
    }),
  },
  { weight: 1, arbitrary: remove('todo') },
  { weight: 2, arbitrary: create('estimate.item', estimateItemProps, ['title', 'unitCost', 'unit']) },
  { weight: 2, arbitrary: patch('estimate.item', estimateItemProps) },
  { weight: 1, arbitrary: remove('estimate.item') },
  ...(['inquiry.text_history', 'contract.history', 'settlement.history'] as const).flatMap((k) =>
    noteOps(k).map((arbitrary) => ({ weight: 1, arbitrary })),
  ),
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.nat(50), fc.constantFrom('brief.pdf', 'plan.png'))
      .map(([pick, name]): Operation => ({ op: 'attach', pick, name })),
  },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.nat(50), fc.nat(5)).map(([pick, filePick]): Operation => ({ op: 'detach', pick, filePick })),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.constantFrom<CatalogSection>(
          'clientStatuses',
          'contractCategories',
          'estimateItemClassifications',
          'positions',
        ),
        text(20),
      )
      .map(([section, title]): Operation => ({ op: 'catalog', section, title })),
  },
  { weight: 2, arbitrary: fc.constant<Operation>({ op: 'sync' }) },
);

/** Puts the `recurring` group's properties into the body itself. */
function flattenRecurring(o: Operation): Operation {
  if (o.op !== 'create' && o.op !== 'patch') return o;
  const { recurring: group, ...rest } = o.body as { recurring?: Record<string, unknown> };
  return { ...o, body: { ...rest, ...group } };
}

/** A sequence of 1..`maxLength` operations. */
export function operations(maxLength: number): fc.Arbitrary<Operation[]> {
  // Long sequences at first (size 'max'); shrinking may take them down to a single operation.
  return fc.array(operation, { minLength: 1, maxLength, size: 'max' });
}

/**
 * `body` with its placeholders replaced: `{$ref: kind, pick}` by `{id}` of `pickRecord(kind, pick)` (or
 * `null` when there is none), `{$cat: section, key}` by `{id}` of that catalog entry of `ids`, `{$catId}` by
 * the id itself and `{$catIdString}` by the id as a string (an `M` custom field's value).
 * @throws Error for a catalog key the test catalog lacks
 */
export function resolveBody(
  body: unknown,
  ids: CatalogIds,
  pickRecord: (kind: RecordKind, pick: number) => number | undefined,
): unknown {
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (v === null || typeof v !== 'object') return v;
    const o = v as Record<string, unknown>;
    if ('$ref' in o) {
      const id = pickRecord(o.$ref as RecordKind, o.pick as number);
      return id === undefined ? null : { id };
    }
    for (const k of ['$cat', '$catId', '$catIdString'] as const) {
      if (k in o) {
        const id = ids[o[k] as keyof CatalogIds][o.key as string];
        if (id === undefined) throw new Error(`no catalog entry ${String(o[k])}.${String(o.key)}`);
        return k === '$cat' ? { id } : k === '$catId' ? id : String(id);
      }
    }
    return Object.fromEntries(Object.entries(o).map(([key, value]) => [key, walk(value)]));
  };
  return walk(body);
}
