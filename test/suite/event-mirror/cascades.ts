/**
 * Operation sequences that reach each cascade of decisions §17 in a few steps (docs/api.md#events): one
 * operation changes the API shape of another record (a nested summary, a link, a hidden or removed child).
 * The mirror property runs them first, before its random sequences, so every known cascade is checked on
 * every run whatever the seed draws. Found by the property itself (stepwise diagnosis, see `runCase`).
 */
import type { Operation } from './operations.ts';

const contract = (extra: Record<string, unknown> = {}): Operation => ({
  op: 'create',
  kind: 'contract',
  body: { title: 'C', amount: 1, type: 'I', startDate: '2026-01-01', endDate: '2026-12-01', ...extra },
});
const inquiry = (extra: Record<string, unknown> = {}): Operation => ({ op: 'create', kind: 'inquiry', body: extra });
const client: Operation = { op: 'create', kind: 'client', body: { companyName: 'A' } };
const first = (kind: string) => ({ $ref: kind, pick: 0 });
const linkedContract = contract({ inquiry: first('inquiry') });
const todo: Operation = {
  op: 'create',
  kind: 'todo',
  body: { inquiry: first('inquiry'), type: 'M', dueDate: '2026-12-01', action: 'Call' },
};
const settlement: Operation = {
  op: 'create',
  kind: 'settlement',
  body: {
    title: 'S',
    amount: 1,
    additionalAmount: 0,
    vat: 0,
    contract: first('contract'),
    type: { $cat: 'settlementTypes', key: 'ini' },
  },
};

/** Each cascade, named by the operation and the event it must write. */
export const CASCADES: Record<string, Operation[]> = {
  'inquiry create linking a contract → contract.updated': [contract(), inquiry({ contract: first('contract') })],
  'inquiry PATCH linking a contract → contract.updated': [
    contract(),
    inquiry(),
    { op: 'patch', kind: 'inquiry', pick: 0, body: { contract: first('contract') } },
  ],
  'inquiry PATCH unlinking its contract → contract.updated': [
    contract(),
    inquiry({ contract: first('contract') }),
    { op: 'patch', kind: 'inquiry', pick: 0, body: { contract: null } },
  ],
  'inquiry PATCH name → contract.updated (its inquiry summary)': [
    inquiry(),
    linkedContract,
    { op: 'patch', kind: 'inquiry', pick: 0, body: { name: 'B' } },
  ],
  'inquiry PATCH status → contract.updated': [
    inquiry(),
    linkedContract,
    { op: 'patch', kind: 'inquiry', pick: 0, body: { status: { $cat: 'statuses', key: 'lost' } } },
  ],
  'inquiry PATCH name → todo.updated (its inquiry summary)': [
    inquiry(),
    todo,
    { op: 'patch', kind: 'inquiry', pick: 0, body: { name: 'B' } },
  ],
  'inquiry DELETE → contract.updated (inquiry null)': [
    inquiry(),
    linkedContract,
    { op: 'delete', kind: 'inquiry', pick: 0 },
  ],
  'inquiry DELETE → todo.deleted': [inquiry(), todo, { op: 'delete', kind: 'inquiry', pick: 0 }],
  'inquiry DELETE → inquiry.text_history.deleted': [
    inquiry(),
    { op: 'create', kind: 'inquiry.text_history', parentPick: 0, body: { content: 'n' } },
    { op: 'delete', kind: 'inquiry', pick: 0 },
  ],
  'contract PATCH title → inquiry.updated (its contract summary)': [
    inquiry(),
    linkedContract,
    { op: 'patch', kind: 'contract', pick: 0, body: { title: 'D' } },
  ],
  'contract PATCH amount → settlement.updated': [
    contract(),
    settlement,
    { op: 'patch', kind: 'contract', pick: 0, body: { amount: 2 } },
  ],
  'contract PATCH status → project.updated': [
    contract(),
    { op: 'create', kind: 'project', body: { title: 'P', contract: first('contract') } },
    { op: 'patch', kind: 'contract', pick: 0, body: { status: 'C' } },
  ],
  'contract DELETE → project.updated (contract null)': [
    contract(),
    { op: 'create', kind: 'project', body: { title: 'P', contract: first('contract') } },
    { op: 'delete', kind: 'contract', pick: 0 },
  ],
  'contract DELETE → settlement, settlement and contract notes deleted': [
    contract(),
    settlement,
    { op: 'create', kind: 'settlement.history', parentPick: 0, body: { content: 'n' } },
    { op: 'create', kind: 'contract.history', parentPick: 0, body: { content: 'n' } },
    { op: 'delete', kind: 'contract', pick: 0 },
  ],
  'client PATCH companyName → inquiry.updated (its client summary)': [
    client,
    inquiry({ client: first('client') }),
    { op: 'patch', kind: 'client', pick: 0, body: { companyName: 'B' } },
  ],
  'client PATCH email → contract.updated (its client summary)': [
    client,
    contract({ client: first('client') }),
    { op: 'patch', kind: 'client', pick: 0, body: { email: 'kim@example.com' } },
  ],
  'client DELETE → inquiry.updated and contract.updated (client null)': [
    client,
    inquiry({ client: first('client') }),
    contract({ client: first('client') }),
    { op: 'delete', kind: 'client', pick: 0 },
  ],
  'catalog import → catalog.updated': [{ op: 'catalog', section: 'clientStatuses', title: 'VIP' }],
};
