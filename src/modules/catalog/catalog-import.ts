/**
 * The catalog file (README.md#provisioning-businesses-keys-and-catalogs): one JSON document that fills a
 * business's read-only catalogs — grades, members, folders with their inquiry statuses, client statuses, custom
 * fields, contract categories, settlement types, worker positions and estimate item classifications — written by
 * `bizapi business create --catalog` and `bizapi catalog import`.
 *
 * Every entry has a `key` that is used only to refer to it inside the file (`member.grade`,
 * `field.members`); the import answers with the ids the keys received ({@link CatalogIds}).
 *
 * An import is all or nothing: the file is checked completely first (schema, then the rules below, then the
 * rules that depend on what the business already holds), every problem is reported with its JSON path, and
 * the rows are written in one transaction. Catalogs accumulate: a business may import several files.
 */
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import Type, { type Static } from 'typebox';
import type { Db } from '../../db/database.ts';
import { inTransaction, nowTimestamp, toBool } from '../../db/sql-helpers.ts';
import { ajvErrorsToLines } from '../../shared/validation-errors.ts';
import * as repo from './catalog.repository.ts';
import { recordCatalogUpdated } from '../event/event.service.ts';
import {
  FIELD_CATEGORIES,
  FIELD_DATA_TYPES,
  SETTLEMENT_BASE_TYPES,
  SETTLEMENT_TYPE_CATEGORIES,
} from './catalog.schemas.ts';

// ── The file's schema ──

const Key = Type.String({ minLength: 1, maxLength: 100, description: 'Name of the entry inside this file only.' });
const Title = Type.String({ minLength: 1, maxLength: 255 });

// The enumerations come from the API's own schemas, so the file and the API can never disagree.

const GradeEntry = Type.Object({ key: Key, title: Title }, { additionalProperties: false });

const MemberEntry = Type.Object(
  {
    key: Key,
    nickname: Type.Optional(Type.Unsafe<string | null>({ type: ['string', 'null'], maxLength: 255 })),
    email: Type.String({ format: 'email', maxLength: 254 }),
    isActive: Type.Optional(Type.Boolean({ default: true })),
    grade: Type.String({ minLength: 1, description: 'The `key` of a grade in this file.' }),
    notificationsEnabled: Type.Optional(Type.Boolean({ default: true })),
  },
  { additionalProperties: false },
);

const StatusEntry = Type.Object(
  { key: Key, title: Title, isDefault: Type.Optional(Type.Boolean({ default: false })) },
  { additionalProperties: false },
);

const FolderEntry = Type.Object(
  {
    key: Key,
    name: Title,
    isDefault: Type.Optional(Type.Boolean({ default: false })),
    statuses: Type.Optional(Type.Array(StatusEntry)),
  },
  { additionalProperties: false },
);

const ClientStatusEntry = StatusEntry;

const FieldOptionEntry = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 100 }), title: Title },
  { additionalProperties: false },
);

const FieldEntry = Type.Object(
  {
    key: Key,
    name: Title,
    category: Type.Enum([...FIELD_CATEGORIES]),
    dataType: Type.Enum([...FIELD_DATA_TYPES]),
    options: Type.Optional(Type.Array(FieldOptionEntry, { description: 'SL and ML fields only; required for them.' })),
    members: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { description: 'M fields only: member keys.' })),
  },
  { additionalProperties: false },
);

const ContractCategoryEntry = Type.Object({ key: Key, title: Title }, { additionalProperties: false });

const SettlementTypeEntry = Type.Object(
  {
    key: Key,
    baseType: Type.Enum([...SETTLEMENT_BASE_TYPES]),
    category: Type.Enum([...SETTLEMENT_TYPE_CATEGORIES]),
    title: Title,
    allowsMultipleRounds: Type.Boolean(),
  },
  { additionalProperties: false },
);

const PositionEntry = Type.Object(
  {
    key: Key,
    title: Title,
    symbolColor: Type.String({ pattern: '^#[0-9A-Fa-f]{6}$', 'x-pattern-message': 'must be a colour like #2f80ed' }),
  },
  { additionalProperties: false },
);

const EstimateItemClassificationEntry = Type.Object({ key: Key, title: Title }, { additionalProperties: false });

/**
 * JSON Schema of the catalog file (README.md#provisioning-businesses-keys-and-catalogs). Every section is
 * optional; unknown properties are errors.
 */
export const CatalogFileSchema = Type.Object(
  {
    $schema: Type.Optional(Type.String()),
    grades: Type.Optional(Type.Array(GradeEntry)),
    members: Type.Optional(Type.Array(MemberEntry)),
    folders: Type.Optional(Type.Array(FolderEntry)),
    clientStatuses: Type.Optional(Type.Array(ClientStatusEntry)),
    fields: Type.Optional(Type.Array(FieldEntry)),
    contractCategories: Type.Optional(Type.Array(ContractCategoryEntry)),
    settlementTypes: Type.Optional(Type.Array(SettlementTypeEntry)),
    positions: Type.Optional(Type.Array(PositionEntry)),
    estimateItemClassifications: Type.Optional(Type.Array(EstimateItemClassificationEntry)),
  },
  { additionalProperties: false },
);

/** A catalog file that passed the schema. */
export type CatalogFile = Static<typeof CatalogFileSchema>;

/**
 * What an import answers (README.md#provisioning-businesses-keys-and-catalogs): each section maps the file's keys
 * to the new ids; the statuses nested in folders come out as their own section. Sections absent from the file are
 * `{}`.
 */
export interface CatalogIds {
  grades: Record<string, number>;
  members: Record<string, number>;
  folders: Record<string, number>;
  statuses: Record<string, number>;
  clientStatuses: Record<string, number>;
  fields: Record<string, number>;
  contractCategories: Record<string, number>;
  settlementTypes: Record<string, number>;
  positions: Record<string, number>;
  estimateItemClassifications: Record<string, number>;
}

/** Thrown for a catalog file that cannot be imported; nothing was written. `problems`: one line each, `<JSON path>: <what is wrong>`. */
export class CatalogError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid catalog file:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'CatalogError';
  }
}

/** What the business already holds that constrains a new file: at most one default folder / client status each. */
export interface CatalogState {
  hasDefaultFolder: boolean;
  hasDefaultClientStatus: boolean;
}

/** The state of a business with no catalog yet (a business being created). */
export const EMPTY_CATALOG_STATE: CatalogState = { hasDefaultFolder: false, hasDefaultClientStatus: false };

// ── Validation ──

const ajv = new Ajv({ allErrors: true, verbose: true, strict: true, allowUnionTypes: true });
// The message of a `pattern` (ajvErrorsToLines), an annotation as in the API's schemas.
ajv.addKeyword({ keyword: 'x-pattern-message', schemaType: 'string' });
addFormatsModule.default(ajv, ['email']);
const validateSchema = ajv.compile<CatalogFile>(CatalogFileSchema);

/**
 * The rules beyond the schema, all of them at once (README.md#provisioning-businesses-keys-and-catalogs):
 * unique `key` within each section (inquiry statuses across all folders); `member.grade` names a grade of
 * the file and `field.members` members of the file; exactly one default folder per business (the file
 * provides it unless the business has one already, and then it may not provide another); every folder has
 * at most one default status and the default folder exactly one; at most one default client status per
 * business; options only on SL / ML fields and at least one there, option ids unique within the field and
 * free of commas (ML values are comma-separated); members only on M fields.
 *
 * @returns the problems, `<JSON path>: <message>`; empty when the file can be imported
 */
export function checkCatalog(file: CatalogFile, state: CatalogState): string[] {
  const problems: string[] = [];

  const uniqueKeys = (section: string, entries: readonly { key: string }[] | undefined): Set<string> => {
    const seen = new Map<string, number>();
    (entries ?? []).forEach((e, i) => {
      const first = seen.get(e.key);
      if (first !== undefined)
        problems.push(`${section}[${i}].key: duplicate key "${e.key}" (also ${section}[${first}])`);
      else seen.set(e.key, i);
    });
    return new Set(seen.keys());
  };

  const gradeKeys = uniqueKeys('grades', file.grades);
  const memberKeys = uniqueKeys('members', file.members);
  uniqueKeys('folders', file.folders);
  uniqueKeys('clientStatuses', file.clientStatuses);
  uniqueKeys('fields', file.fields);
  uniqueKeys('contractCategories', file.contractCategories);
  uniqueKeys('settlementTypes', file.settlementTypes);
  uniqueKeys('positions', file.positions);
  uniqueKeys('estimateItemClassifications', file.estimateItemClassifications);

  // Inquiry statuses: keys unique across every folder, since they share one section of the ids.
  const statusSeen = new Map<string, string>();
  (file.folders ?? []).forEach((folder, f) => {
    (folder.statuses ?? []).forEach((s, i) => {
      const path = `folders[${f}].statuses[${i}]`;
      const first = statusSeen.get(s.key);
      if (first !== undefined) problems.push(`${path}.key: duplicate status key "${s.key}" (also ${first})`);
      else statusSeen.set(s.key, path);
    });
  });

  (file.members ?? []).forEach((m, i) => {
    if (!gradeKeys.has(m.grade)) problems.push(`members[${i}].grade: unknown grade "${m.grade}"`);
  });

  // Folders and their default statuses.
  const folders = file.folders ?? [];
  const defaultFolders = folders.flatMap((f, i) => (f.isDefault === true ? [i] : []));
  if (defaultFolders.length > 1) {
    problems.push(
      `folders: exactly one folder must be default (found ${defaultFolders.length}: ${defaultFolders.map((i) => `folders[${i}]`).join(', ')})`,
    );
  } else if (defaultFolders.length === 1 && state.hasDefaultFolder) {
    problems.push(
      `folders[${defaultFolders[0]}].isDefault: the business already has a default folder; this file may not mark another`,
    );
  } else if (defaultFolders.length === 0 && !state.hasDefaultFolder) {
    problems.push('folders: exactly one folder must be default');
  }
  folders.forEach((folder, f) => {
    const defaults = (folder.statuses ?? []).filter((s) => s.isDefault === true).length;
    if (folder.isDefault === true && defaults !== 1) {
      problems.push(`folders[${f}].statuses: exactly one status must be default (found ${defaults})`);
    } else if (defaults > 1) {
      problems.push(`folders[${f}].statuses: at most one status may be default (found ${defaults})`);
    }
  });

  // Client statuses: at most one default per business.
  const defaultClientStatuses = (file.clientStatuses ?? []).flatMap((s, i) => (s.isDefault === true ? [i] : []));
  if (defaultClientStatuses.length > 1) {
    problems.push(
      `clientStatuses: at most one client status may be default (found ${defaultClientStatuses.length}: ${defaultClientStatuses.map((i) => `clientStatuses[${i}]`).join(', ')})`,
    );
  } else if (defaultClientStatuses.length === 1 && state.hasDefaultClientStatus) {
    problems.push(
      `clientStatuses[${defaultClientStatuses[0]}].isDefault: the business already has a default client status; this file may not mark another`,
    );
  }

  // Custom fields: options for SL / ML, members for M.
  (file.fields ?? []).forEach((field, i) => {
    const path = `fields[${i}]`;
    const options = field.options ?? [];
    if (field.dataType === 'SL' || field.dataType === 'ML') {
      if (options.length === 0) problems.push(`${path}.options: ${field.dataType} fields need at least one option`);
      const seen = new Map<string, number>();
      options.forEach((o, j) => {
        const first = seen.get(o.id);
        if (first !== undefined)
          problems.push(`${path}.options[${j}].id: duplicate option id "${o.id}" (also ${path}.options[${first}])`);
        else seen.set(o.id, j);
        if (o.id.includes(','))
          problems.push(`${path}.options[${j}].id: must not contain a comma (ML values are comma-separated)`);
      });
    } else if (options.length > 0) {
      problems.push(`${path}.options: only SL and ML fields have options (dataType is ${field.dataType})`);
    }
    const members = field.members ?? [];
    if (field.dataType !== 'M') {
      if (members.length > 0)
        problems.push(`${path}.members: only M fields have members (dataType is ${field.dataType})`);
    } else {
      const seen = new Set<string>();
      members.forEach((key, j) => {
        if (!memberKeys.has(key)) problems.push(`${path}.members[${j}]: unknown member "${key}"`);
        else if (seen.has(key)) problems.push(`${path}.members[${j}]: duplicate member "${key}"`);
        seen.add(key);
      });
    }
  });

  return problems;
}

/**
 * Checks a parsed JSON value against the schema and the rules of {@link checkCatalog}.
 *
 * @param input the parsed JSON document
 * @param state what the business already holds; {@link EMPTY_CATALOG_STATE} for a new business
 * @returns the file, typed
 * @throws CatalogError listing every problem (schema problems first; the other rules run only on a file
 *   that matches the schema)
 */
export function validateCatalog(input: unknown, state: CatalogState = EMPTY_CATALOG_STATE): CatalogFile {
  if (!validateSchema(input)) {
    throw new CatalogError(ajvErrorsToLines(validateSchema.errors ?? [], 'catalog'));
  }
  const problems = checkCatalog(input, state);
  if (problems.length > 0) throw new CatalogError(problems);
  return input;
}

// ── Import ──

/**
 * Imports a catalog file into a business, all or nothing (README.md#provisioning-businesses-keys-and-catalogs).
 *
 * Runs in one transaction: `db`'s own when `db` is already a transaction (so a caller can create the
 * business, its key and its catalog together), else a new one. Positions continue after what the business
 * already has: inquiry statuses in file order across folders (folder order, then status order), client
 * statuses, settlement types and estimate item classifications in file order. Booleans default as the schema says (`isActive` and
 * `notificationsEnabled` true, `isDefault` false); `nickname` defaults to null.
 *
 * With `options.events`, writes one `catalog.updated` event per section that received entries, `data:
 * {section, ids}`, with the section names of the answer (docs/api.md#cascades).
 *
 * @param businessId an existing business (the caller checks; a missing one fails on the foreign key)
 * @param file the parsed JSON document
 * @returns the ids of everything written, by file key
 * @throws CatalogError when the file is invalid, or clashes with the business's existing default folder or
 *   default client status; nothing is written
 */
export async function importCatalog(
  db: Db,
  businessId: number,
  file: unknown,
  options: ImportOptions = {},
): Promise<CatalogIds> {
  // Check the shape before opening a transaction; the business-dependent rules run inside it.
  if (!validateSchema(file)) throw new CatalogError(ajvErrorsToLines(validateSchema.errors ?? [], 'catalog'));
  return inTransaction(db, (trx) => writeCatalog(trx, businessId, file, options));
}

/** Options of {@link importCatalog}. */
export interface ImportOptions {
  /**
   * Write the `catalog.updated` events (docs/api.md#cascades): `bizapi catalog import` into a business that
   * exists already. Not for the first catalog of a business being created (`bizapi business create
   * --catalog`, the demo): nothing could have read the business before.
   */
  events?: boolean;
}

async function writeCatalog(trx: Db, businessId: number, input: unknown, options: ImportOptions): Promise<CatalogIds> {
  const state: CatalogState = {
    hasDefaultFolder: (await repo.findDefaultFolderId(trx, businessId)) !== undefined,
    hasDefaultClientStatus: await repo.hasDefaultClientStatus(trx, businessId),
  };
  const file = validateCatalog(input, state);
  const positions = await repo.findMaxCatalogPositions(trx, businessId);
  const created = nowTimestamp();

  const grades = new Map<string, number>();
  for (const g of file.grades ?? []) {
    grades.set(g.key, await repo.insertCatalog(trx, 'grade', businessId, { title: g.title, created }));
  }

  const members = new Map<string, number>();
  for (const m of file.members ?? []) {
    const id = await repo.insertCatalog(trx, 'member', businessId, {
      nickname: m.nickname ?? null,
      email: m.email,
      is_active: toBool(m.isActive ?? true),
      grade_id: grades.get(m.grade) as number,
      notifications_enabled: toBool(m.notificationsEnabled ?? true),
      created,
    });
    members.set(m.key, id);
  }

  const folders = new Map<string, number>();
  const statuses = new Map<string, number>();
  let statusPosition = positions.inquiryStatus;
  for (const f of file.folders ?? []) {
    const folderId = await repo.insertCatalog(trx, 'folder', businessId, {
      name: f.name,
      is_default: toBool(f.isDefault ?? false),
      created,
    });
    folders.set(f.key, folderId);
    for (const s of f.statuses ?? []) {
      statusPosition += 1;
      const id = await repo.insertCatalog(trx, 'inquiry_status', businessId, {
        folder_id: folderId,
        title: s.title,
        is_default: toBool(s.isDefault ?? false),
        position: statusPosition,
        created,
      });
      statuses.set(s.key, id);
    }
  }

  const clientStatuses = new Map<string, number>();
  let clientStatusPosition = positions.clientStatus;
  for (const s of file.clientStatuses ?? []) {
    clientStatusPosition += 1;
    const id = await repo.insertCatalog(trx, 'client_status', businessId, {
      title: s.title,
      is_default: toBool(s.isDefault ?? false),
      position: clientStatusPosition,
      created,
    });
    clientStatuses.set(s.key, id);
  }

  const fields = new Map<string, number>();
  for (const f of file.fields ?? []) {
    const fieldId = await repo.insertCatalog(trx, 'field', businessId, {
      name: f.name,
      category: f.category,
      data_type: f.dataType,
      created,
    });
    fields.set(f.key, fieldId);
    await repo.insertFieldOptions(
      trx,
      businessId,
      (f.options ?? []).map((o, i) => ({ field_id: fieldId, option_id: o.id, title: o.title, position: i + 1 })),
    );
    await repo.insertFieldMembers(
      trx,
      businessId,
      (f.members ?? []).map((key, i) => ({
        field_id: fieldId,
        member_id: members.get(key) as number,
        position: i + 1,
      })),
    );
  }

  const contractCategories = new Map<string, number>();
  for (const c of file.contractCategories ?? []) {
    contractCategories.set(
      c.key,
      await repo.insertCatalog(trx, 'contract_category', businessId, { title: c.title, created }),
    );
  }

  const settlementTypes = new Map<string, number>();
  let settlementTypePosition = positions.settlementType;
  for (const t of file.settlementTypes ?? []) {
    settlementTypePosition += 1;
    const id = await repo.insertCatalog(trx, 'settlement_type', businessId, {
      base_type: t.baseType,
      category: t.category,
      title: t.title,
      allows_multiple_rounds: toBool(t.allowsMultipleRounds),
      position: settlementTypePosition,
      created,
    });
    settlementTypes.set(t.key, id);
  }

  const workerPositions = new Map<string, number>();
  for (const p of file.positions ?? []) {
    const id = await repo.insertCatalog(trx, 'worker_position', businessId, {
      title: p.title,
      symbol_color: p.symbolColor,
      created,
    });
    workerPositions.set(p.key, id);
  }

  const classifications = new Map<string, number>();
  let classificationPosition = positions.estimateItemClassification;
  for (const c of file.estimateItemClassifications ?? []) {
    classificationPosition += 1;
    const id = await repo.insertCatalog(trx, 'estimate_item_classification', businessId, {
      title: c.title,
      position: classificationPosition,
      created,
    });
    classifications.set(c.key, id);
  }

  // Object.fromEntries defines own properties, so a key such as "__proto__" is safe.
  const ids: CatalogIds = {
    grades: Object.fromEntries(grades),
    members: Object.fromEntries(members),
    folders: Object.fromEntries(folders),
    statuses: Object.fromEntries(statuses),
    clientStatuses: Object.fromEntries(clientStatuses),
    fields: Object.fromEntries(fields),
    contractCategories: Object.fromEntries(contractCategories),
    settlementTypes: Object.fromEntries(settlementTypes),
    positions: Object.fromEntries(workerPositions),
    estimateItemClassifications: Object.fromEntries(classifications),
  };
  // One `catalog.updated` per section that received entries (docs/api.md#cascades).
  if (options.events === true)
    await recordCatalogUpdated(
      trx,
      businessId,
      Object.fromEntries(Object.entries(ids).map(([section, keys]) => [section, Object.values(keys)])),
      created,
    );
  return ids;
}
