/**
 * One property ↔ column map per resource (issue 42): a resource declares, once and in the order of its full
 * shape, each API property — the column that stores it, how a value is coerced each way, whether a create,
 * PATCH and restore write it, its create default, whether the list shape carries it — and every mapping site
 * derives from that declaration: the row mapper ({@link readShape}), the repository's column list
 * ({@link selectColumns}), the create insert ({@link insertColumns}), the PATCH columns ({@link patchColumns}),
 * the stored values a PATCH compares with ({@link storedColumns}) and a restore's request body
 * ({@link restoreBody}). Kysely's table type stays the source of the column types: a column is a key of the
 * row type and a property's values are checked against it.
 *
 * Properties whose value is not one column of the row (a nested summary read through a join, a set read as a
 * JSON column) are `derived`: the map still holds their place in the shape, and the caller hands their values
 * to {@link readShape}. A writable reference (`client: {id}`) is stored in a column and read as a derived summary.
 */

/** One entry of a property map; build it with {@link propertiesOf}. */
export interface PropertyEntry<
  Api = unknown,
  Body = unknown,
  Column extends string | undefined = string | undefined,
  Value = unknown,
  List extends boolean = boolean,
  Writable extends boolean = boolean,
  Read extends boolean = boolean,
> {
  /** The column that stores the property, or `undefined` for a derived property. */
  readonly column: Column;
  /**
   * The name the stored value has in a full-shape read row (`column`, or an alias such as `stored_client_id`
   * where the row's `client_id` is a joined live client's id).
   */
  readonly stored: string | undefined;
  /** Whether the list shape (create answers, list items) carries the property. */
  readonly list: List;
  /** Whether create, PATCH and restore write the property's column from the request body. */
  readonly writable: Writable;
  /** Whether the answer's value is read from the column (else the caller hands it in: a derived property, a reference's summary). */
  readonly read: Read;
  /** The value a create stores when the body leaves the property out (body terms); `undefined`: required. */
  readonly default: Body | undefined;
  /** Body value → column value. */
  readonly toColumn: (value: Body) => Value;
  /** Column value → API value. */
  readonly fromColumn: (value: Value) => Api;
  /** A full shape's value → the body value a restore writes (a reference reduced to `{id}`). */
  readonly toBody: (value: Api) => Body;
  /**
   * Whether a create that leaves the property out leaves its column out of the insert, for the insert to
   * choose the value ({@link insertDefaulted}); a restore still writes `default`. Unset: the create writes `default`.
   */
  readonly insertDefaulted?: boolean;
}

/* eslint-disable @typescript-eslint/no-explicit-any -- an entry's value types vary both ways (read and written) */
/** Any entry, whatever its value types. */
type AnyEntry = PropertyEntry<any, any, string | undefined, any, boolean, boolean, boolean>;
/** A resource's map: API property → entry, in the order of the full shape. */
export type PropertyMap = Readonly<Record<string, AnyEntry>>;

type ApiOf<E> = E extends PropertyEntry<infer A, any, string | undefined, any> ? A : never;
type BodyOf<E> = E extends PropertyEntry<any, infer B, string | undefined, any> ? B : never;
type ValueOf<E> = E extends PropertyEntry<any, any, string | undefined, infer V> ? V : never;
type ColumnOf<E> = E extends PropertyEntry<any, any, infer C, any> ? C : never;
/* eslint-enable @typescript-eslint/no-explicit-any */

/** The properties of `M` read from a column. */
type ReadKeys<M extends PropertyMap> = { [P in keyof M]: M[P]['read'] extends true ? P : never }[keyof M];
/** The properties of `M` whose values the caller hands in (derived). */
type DerivedKeys<M extends PropertyMap> = Exclude<keyof M, ReadKeys<M>>;
/** The writable properties of `M`. */
type WritableKeys<M extends PropertyMap> = { [P in keyof M]: M[P]['writable'] extends true ? P : never }[keyof M];
/** The properties of `M` in the list shape. */
type ListKeys<M extends PropertyMap> = { [P in keyof M]: M[P]['list'] extends true ? P : never }[keyof M];

/** The columns a read row must hold for the properties `K` of `M` read from a column, with their types. */
export type RowOf<M extends PropertyMap, K extends keyof M = keyof M> = {
  [P in ReadKeys<M> & K as ColumnOf<M[P]> & string]: ValueOf<M[P]>;
};
/** The full shape `M` describes. */
export type ShapeOf<M extends PropertyMap> = { -readonly [P in keyof M]: ApiOf<M[P]> };
/** The list shape `M` describes. */
export type ListShapeOf<M extends PropertyMap> = { -readonly [P in ListKeys<M>]: ApiOf<M[P]> };
/** The values of the derived properties of `M`, which {@link readShape} takes from its caller. */
export type DerivedOf<M extends PropertyMap, K extends keyof M = keyof M> = { [P in DerivedKeys<M> & K]: ApiOf<M[P]> };
/** The request body of `M`'s writable properties, all optional (a PATCH). */
export type BodyShapeOf<M extends PropertyMap> = { [P in WritableKeys<M>]?: BodyOf<M[P]> };
/** The columns `M`'s writable properties store, by column name. */
export type ColumnsOf<M extends PropertyMap> = { [P in WritableKeys<M> as ColumnOf<M[P]> & string]: ValueOf<M[P]> };
/** Which of a map's columns a select list takes: all, the list shape's, or the rest (the full shape adds them to the list's). */
export type ColumnSet = 'all' | 'list' | 'detail';
type KeysOf<M extends PropertyMap, S extends ColumnSet> = S extends 'list'
  ? ListKeys<M>
  : S extends 'detail'
    ? Exclude<keyof M, ListKeys<M>>
    : keyof M;
/** The table columns `M` reads for the properties of set `S`, as `table.column`. */
export type SelectedColumn<
  M extends PropertyMap,
  T extends string,
  S extends ColumnSet = 'all',
> = `${T}.${ColumnOf<M[ReadKeys<M> & KeysOf<M, S>]> & string}`;

const same = <T>(value: T): T => value;

/**
 * The entry builders of a resource whose rows are `Row` (its Kysely table type): each checks the column name
 * against `Row` and the values against the column's type.
 */
export function propertiesOf<Row>() {
  const unused = (): never => {
    throw new Error('a derived property has no column');
  };
  return {
    /**
     * A property stored as it is in `column`; `Api` may narrow the column's type (an enum stored as text). Read
     * and written; `default` makes it optional on create; `readOnly` keeps it out of the body (`id`, `created`).
     */
    column<C extends keyof Row & string, Api extends Row[C] = Row[C], RO extends boolean = false>(
      column: C,
      options: { default?: NoInfer<Api>; readOnly?: RO } = {},
    ): PropertyEntry<Api, Api, C, Row[C], false, RO extends true ? false : true, true> {
      return {
        column,
        stored: column,
        list: false,
        writable: !options.readOnly as RO extends true ? false : true,
        read: true,
        default: options.default,
        toColumn: same,
        fromColumn: same as (value: Row[C]) => Api,
        toBody: same,
      };
    },
    /** A property stored as it is in text column `column`, one of `values` (an enum; `null` too where the column is nullable). */
    oneOf<C extends keyof Row & string, const V extends readonly Row[C][]>(
      column: C,
      values: V,
      options: { default?: V[number] | (null extends Row[C] ? null : never) } = {},
    ): PropertyEntry<
      V[number] | (null extends Row[C] ? null : never),
      V[number] | (null extends Row[C] ? null : never),
      C,
      Row[C],
      false,
      true,
      true
    > {
      void values;
      return {
        column,
        stored: column,
        list: false,
        writable: true,
        read: true,
        default: options.default,
        toColumn: same as (value: unknown) => Row[C],
        fromColumn: same as (value: Row[C]) => never,
        toBody: same,
      };
    },
    /**
     * A property read from `column` as it is, whose writes are the service's own, not the map's (a value a
     * check parses first, a `null` that means "no change", a default known only at run time: an inquiry's
     * `name`, `inquiryDate`, `estimate`): in the shape and the select lists, never in a derived write.
     */
    readColumn<C extends keyof Row & string, Api extends Row[C] = Row[C]>(
      column: C,
    ): PropertyEntry<Api, undefined, C, Row[C], false, false, true> {
      return {
        column,
        stored: column,
        list: false,
        writable: false,
        read: true,
        default: undefined,
        toColumn: unused,
        fromColumn: same as (value: Row[C]) => Api,
        toBody: unused,
      };
    },
    /**
     * A boolean property stored as 0/1 in integer column `column` (`is_hidden`, `is_complete`; SQLite has no
     * boolean, so both databases store 0/1): `false` when a create leaves it out.
     */
    flag<C extends { [K in keyof Row]: Row[K] extends number ? K : never }[keyof Row] & string>(
      column: C,
    ): PropertyEntry<boolean, boolean, C, Row[C], false, true, true> {
      return {
        column,
        stored: column,
        list: false,
        writable: true,
        read: true,
        default: false,
        toColumn: (value) => (value ? 1 : 0) as Row[C],
        fromColumn: (value) => value === 1,
        toBody: same,
      };
    },
    /** A property stored in `column` through a coercion each way (a time normalised to `HH:MM:SS`). */
    coerced<C extends keyof Row & string, Api>(
      column: C,
      coerce: { toColumn: (value: Api) => Row[C]; fromColumn: (value: Row[C]) => Api },
      options: { default?: Api } = {},
    ): PropertyEntry<Api, Api, C, Row[C], false, true, true> {
      return {
        column,
        stored: column,
        list: false,
        writable: true,
        read: true,
        default: options.default,
        ...coerce,
        toBody: same,
      };
    },
    /**
     * A reference `{id}` (body; `null` unlinks) stored in `column` and answered as the nested summary `Api`,
     * which the caller reads through a join; `stored` names the column's value in a full-shape read row.
     * Defaults to `null` on create.
     */
    reference<C extends keyof Row & string, Api extends { id: number } | null>(
      column: C,
      stored: string,
    ): PropertyEntry<Api, { id: number } | null, C, Row[C], false, true, false> {
      return {
        column,
        stored,
        list: false,
        writable: true,
        read: false,
        default: null,
        toColumn: (value) => (value?.id ?? null) as Row[C],
        fromColumn: unused,
        toBody: (value) => (value ? { id: value.id } : null),
      };
    },
    /** A property not stored in a column of the row (a set, a summary of another record): its value comes from the caller. */
    derived<Api>(): PropertyEntry<Api, undefined, undefined, undefined, false, false, false> {
      return {
        column: undefined,
        stored: undefined,
        list: false,
        writable: false,
        read: false,
        default: undefined,
        toColumn: unused,
        fromColumn: unused,
        toBody: unused,
      };
    },
  };
}

/** `entry`, carried by the list shape too (create answers, list items). */
export function inList<A, B, C extends string | undefined, V, W extends boolean, R extends boolean>(
  entry: PropertyEntry<A, B, C, V, boolean, W, R>,
): PropertyEntry<A, B, C, V, true, W, R> {
  return { ...entry, list: true };
}

/**
 * `entry`, whose column a create leaves out of its insert when the body leaves the property out, so that the
 * insert (or the database) chooses the value: a client's default status (docs/api.md#clients; client.repository
 * `insert`). {@link insertColumns} then leaves the column out; a body that sends the property,
 * `null` included, writes it; a restore ({@link restoreBody}) still writes the entry's `default`.
 */
export function insertDefaulted<
  A,
  B,
  C extends string | undefined,
  V,
  L extends boolean,
  W extends boolean,
  R extends boolean,
>(entry: PropertyEntry<A, B, C, V, L, W, R>): PropertyEntry<A, B, C, V | undefined, L, W, R> {
  return { ...(entry as PropertyEntry<A, B, C, V | undefined, L, W, R>), insertDefaulted: true };
}

/**
 * The shape of a read `row`: each property of `map` in the map's order (the order of the JSON an event
 * stores), read from its column or taken from `derived`. `list` keeps only the list shape's properties.
 */
export function readShape<M extends PropertyMap>(
  map: M,
  row: RowOf<M>,
  derived: DerivedOf<M>,
  list?: false,
): ShapeOf<M>;
export function readShape<M extends PropertyMap>(
  map: M,
  row: RowOf<M, ListKeys<M>>,
  derived: DerivedOf<M, ListKeys<M>>,
  list: true,
): ListShapeOf<M>;
export function readShape<M extends PropertyMap>(map: M, row: object, derived: object, list = false): object {
  const out: Record<string, unknown> = {};
  const values = row as Record<string, unknown>;
  const given = derived as Record<string, unknown>;
  for (const property in map) {
    const entry = map[property]!;
    if (list && !entry.list) continue;
    out[property] = entry.read ? entry.fromColumn(values[entry.column!]) : given[property];
  }
  return out;
}

/** The columns `map` reads, as `table.column`, for a repository's select list: of every property, of the list shape's, or of the others. */
export function selectColumns<M extends PropertyMap, T extends string, S extends ColumnSet = 'all'>(
  map: M,
  table: T,
  set?: S,
): SelectedColumn<M, T, S>[] {
  const out: string[] = [];
  for (const property in map) {
    const entry = map[property]!;
    if (!entry.read || (set === 'list' && !entry.list) || (set === 'detail' && entry.list)) continue;
    out.push(`${table}.${entry.column}`);
  }
  return out as SelectedColumn<M, T, S>[];
}

/** The list shape of a full shape: its properties the list carries, in order (a create's answer). */
export function listShape<M extends PropertyMap>(map: M, shape: ShapeOf<M>): ListShapeOf<M> {
  const out: Record<string, unknown> = {};
  for (const property in map) if (map[property]!.list) out[property] = (shape as Record<string, unknown>)[property];
  return out as ListShapeOf<M>;
}

/** The columns a PATCH body writes: only the properties it sends (PATCH is partial), coerced. */
export function patchColumns<M extends PropertyMap>(map: M, body: BodyShapeOf<M>): Partial<ColumnsOf<M>> {
  const out: Record<string, unknown> = {};
  const values = body as Record<string, unknown>;
  for (const property in map) {
    const entry = map[property]!;
    if (!entry.writable || values[property] === undefined) continue;
    out[entry.column!] = entry.toColumn(values[property]);
  }
  return out as Partial<ColumnsOf<M>>;
}

/**
 * {@link patchColumns} of every writable property but `except`: those a service writes by a rule of its own on
 * PATCH (a todo's completion) or that PATCH ignores (a todo's `inquiry`); the body's values for them are left
 * for the service.
 */
export function patchColumnsExcept<M extends PropertyMap>(
  map: M,
  body: BodyShapeOf<M>,
  except: readonly (keyof M)[],
): Partial<ColumnsOf<M>> {
  const rest: Record<string, unknown> = { ...body };
  for (const property of except) delete rest[property as string];
  return patchColumns(map, rest as BodyShapeOf<M>);
}

/**
 * The columns a create stores: every writable property, the body's value or the create default; a property
 * {@link insertDefaulted} that the body leaves out is left out (the insert chooses its value).
 */
export function insertColumns<M extends PropertyMap>(map: M, body: BodyShapeOf<M>): ColumnsOf<M> {
  const out: Record<string, unknown> = {};
  const values = body as Record<string, unknown>;
  for (const property in map) {
    const entry = map[property]!;
    if (!entry.writable || (entry.insertDefaulted && values[property] === undefined)) continue;
    out[entry.column!] = entry.toColumn(values[property] ?? entry.default);
  }
  return out as ColumnsOf<M>;
}

/** The stored values of a full-shape read row that {@link patchColumns} may write, by column, to compare a patch with (`changedColumns`). */
export function storedColumns<M extends PropertyMap>(map: M, row: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const values = row as Record<string, unknown>;
  for (const property in map) {
    const entry = map[property]!;
    if (entry.writable) out[entry.column!] = values[entry.stored!];
  }
  return out;
}

/**
 * The request body that writes a restored full shape: every writable property, references reduced to
 * `{id}`; optional properties the source did not send take the create defaults; a required one is left as sent.
 */
export function restoreBody<M extends PropertyMap>(map: M, shape: Partial<ShapeOf<M>>): BodyShapeOf<M> {
  const out: Record<string, unknown> = {};
  const values = shape as Record<string, unknown>;
  for (const property in map) {
    const entry = map[property]!;
    if (!entry.writable) continue;
    const value = values[property];
    // A required property (no default) is passed on as the source sent it, for the body check to refuse.
    if (value === undefined || value === null) out[property] = entry.default === undefined ? value : entry.default;
    else out[property] = entry.toBody(value);
  }
  return out as BodyShapeOf<M>;
}
