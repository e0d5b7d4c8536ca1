// The shapes of a crawler definition: what crawlers.ts keeps by hand and docs-crawlers.ts (generated) gives.

export interface TaskParamDef {
  type: string;
  group?: string;
  regex?: string;
  required: boolean;
  default: unknown;
  example?: unknown;
  /** Other names a task may give it (its examples page sends one and its answer shows this name): stored as this. */
  aliases?: string[];
  description: string;
}
export interface SquidParamDef {
  type: string;
  allowed?: unknown[];
  /** The largest value an int param takes (the details page's `max`). */
  max?: number;
  default: unknown;
  required: boolean;
  description: string;
}
export interface FunctionDef {
  display: string;
  description?: string;
  credits_per_function: number;
  default: boolean;
}
export interface AttrDef {
  name: string;
  type: 'string' | 'integer' | 'float' | 'boolean' | 'text' | 'json';
  example: unknown;
  /** Owning function key; undefined = base attribute (is_main). */
  fn?: string;
  /** Missing from some rows, as live rows are heterogeneous (the get-results sample's second row has no opening_hours). */
  optional?: true;
  /** Null in every sampled row (a column the docs show but never fill): generated null. */
  always_null?: true;
  /** A column of an examples page's rows: generated after its example (rows.ts). */
  sampled?: true;
  /** Only in rows of a parameter task (city, category…), not of a URL task. */
  params_tasks_only?: true;
  description: string;
}
export interface CrawlerDef {
  /** The docs samples' id where the crawler is sampled; else a hash of the slug. */
  id?: string;
  slug: string;
  name: string;
  credits_per_row: number;
  max_concurrency: number;
  /** False when unset, as for every demo crawler. */
  is_premium?: boolean;
  /** Its runs crash (the demo's way to show run.error); false when unset. */
  has_issues?: boolean;
  /** The site account its runs need (a crawler without one needs none). */
  account?: { type: string; baseurl: string; cookies: { name: string; required: boolean }[] };
  task: Record<string, TaskParamDef>;
  squid: Record<string, SquidParamDef>;
  functions: Record<string, FunctionDef>;
  /** What the attributes page calls the base (not a function's) attributes; "Base" when unset. */
  base_label?: string;
  attributes: AttrDef[];
  /**
   * The `module` an added task shows: the integer the crawler's add-tasks example shows, null when that example's
   * tasks show none (the key is left out), the crawler's id when unset (the add-tasks reference page).
   */
  task_module?: number | null;
  /**
   * The JSON type of its result rows' `id` where its get-results example shows one other than the reference page's
   * 32-hex string (Bien'ici, Facebook page details, Leboncoin listings: an integer); a hash when unset.
   */
  result_id?: 'integer';
  /**
   * What an update (POST /v1/squids/{id}) answers for its squids, as its one update-settings page shows (the generator
   * reads it; docs/emulator.md): unset, an echo of the fields sent; 'settings', {name, no_line_breaks, params,
   * to_complete, export_unique_results} with is_active and run_notify when sent; 'squid', the whole squid.
   */
  update_answer?: 'settings' | 'squid';
  /** That answer's status: 201 (every update-settings page's label) when unset. */
  update_status?: number;
  /** The examples/ pages of the crawler (add-tasks, get-results, update-settings…); none for a crawler of the seed's own. */
  pages?: string[];
  /** What the docs do not give and the emulator assumes (docs/emulator.md): credits_per_row, attributes, account… */
  assumed?: string[];
}

/** A crawler as the generated docs-crawlers.ts gives it: its site account by type name. */
export interface DocsCrawler extends Omit<CrawlerDef, 'account' | 'pages' | 'assumed'> {
  account_type?: string;
  pages: string[];
  assumed: string[];
}
