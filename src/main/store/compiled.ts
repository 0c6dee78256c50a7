/**
 * Statements a check runs every time, compiled once (docs/adr/0227-check-path-statements-compiled-once.md). Kysely
 * builds and compiles a query anew at each call; on the check path that cost more than running it. A statement here
 * is written with the query builder as any other, its shape fixed (never built differently for different
 * arguments); its SQL is compiled the first time, with a stand-in for each argument, and kept. Every run still goes
 * through Kysely's executor — its one connection and its transactions, the store's guard and statement cache
 * (storage.ts) — with the arguments bound where the stand-ins were.
 *
 * A handle with plugins (the tests' and the simulation's fault injection, which read each query's syntax tree) builds
 * the query in full, as before: they see the same tree, with the real values.
 */
import {
  DummyDriver,
  Kysely,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type Compilable,
  type QueryResult,
  type RawBuilder,
  type RootOperationNode,
} from 'kysely'
import type { Database } from './schema'

/** The store's handle (database.ts names it too; not imported from there, which imports this file). */
type Db = Kysely<Database>

export type Statement<A extends unknown[], R> = (db: Db, ...args: A) => Promise<QueryResult<R>>

/** A query as the builder makes it, or as `sql` writes it. */
type Built<R> = Compilable<R> | RawBuilder<R>

const isRaw = <R>(built: Built<R>): built is RawBuilder<R> => 'isRawBuilder' in built && built.isRawBuilder

/** A Kysely that only compiles (no connection): the statements' SQL is the store's dialect's. */
const COMPILER = new Kysely<Database>({
  dialect: {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  },
})

interface Compiled {
  sql: string
  query: RootOperationNode
  /** Each parameter of the SQL: the index of the argument bound there, or a constant the builder was given. */
  parameters: Array<{ arg: number } | { value: unknown }>
}

/** A statement built by `build` from its arguments, compiled at its first run and kept. */
export function compiledOnce<A extends unknown[], R>(build: (db: Db, ...args: A) => Built<R>): Statement<A, R> {
  let compiled: Compiled | undefined
  return (db, ...args) => {
    if (db.getExecutor().plugins.length > 0) {
      const built = build(db, ...args)
      return isRaw(built) ? built.execute(db) : db.executeQuery(built)
    }
    compiled ??= compile(build, args.length)
    const parameters = compiled.parameters.map((p) => ('arg' in p ? args[p.arg] : p.value))
    return db.executeQuery<R>({ sql: compiled.sql, query: compiled.query, parameters, queryId: { queryId: '' } })
  }
}

/** Compiles `build` with a stand-in (a string no argument is) for each of its `arity` arguments. */
function compile<A extends unknown[], R>(build: (db: Db, ...args: A) => Built<R>, arity: number): Compiled {
  const standIns = Array.from({ length: arity }, (_, i) => `\u0000compiled-once argument ${i}\u0000`)
  const built = build(COMPILER, ...(standIns as A))
  const { sql, query, parameters } = isRaw(built) ? built.compile(COMPILER) : built.compile()
  const bound = parameters.map((value) => {
    const arg = standIns.indexOf(value as string)
    return arg === -1 ? { value } : { arg }
  })
  for (let i = 0; i < arity; i++) {
    // An argument used for anything but a bound value (a column name, a branch) would be lost in the SQL kept.
    if (!bound.some((p) => 'arg' in p && p.arg === i)) throw new Error(`compiledOnce: argument ${i} is not a bound value of ${sql}`)
  }
  return { sql, query, parameters: bound }
}

/** The first row a statement reads, or undefined. */
export async function firstRow<A extends unknown[], R>(run: Statement<A, R>, db: Db, ...args: A): Promise<R | undefined> {
  return (await run(db, ...args)).rows[0]
}

/** How many rows a write changed. */
export async function changedRows<A extends unknown[]>(run: Statement<A, unknown>, db: Db, ...args: A): Promise<number> {
  return Number((await run(db, ...args)).numAffectedRows ?? 0n)
}
