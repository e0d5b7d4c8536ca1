// The tools `sq mcp` serves. Each one runs sq's verbs in-process with --json (src/mcp/calls.ts: `t.verb`), so it has
// the verbs' requests, pacing, retries, checks, error mapping and masking; the files here say, per tool, which verbs, how
// its arguments become their command lines, what its answer looks like (outputSchema) and who may call it.
//
// Answers are made for an agent that pays for every byte: empty fields, icons and `object` tags dropped (compact),
// lists of 20 rows unless asked, one paging scheme (`cursor` in, `next_cursor` out), `fields` to keep only some.
//
// One file per noun (src/mcp/tools/<noun>.ts); what they share is in kit.ts, what starting a run needs in spend.ts.
import { accountsGet, accountsList } from './accounts.js';
import { apply, plan, status, whoami } from './account.js';
import { balance, billingAutoResetGet, billingAutoResetSet } from './billing.js';
import { crawlersGet, crawlersParams, crawlersSearch } from './crawlers.js';
import {
  deliveryApply,
  deliveryEmail,
  deliverySftp,
  deliveryS3,
  deliverySheet,
  deliveryShow,
  deliveryTest,
  deliveryWebhook,
} from './delivery.js';
import type { ToolDef } from './kit.js';
import { resultsList, resultsUrl } from './results.js';
import { go, runsAbort, runsGet, runsList, runsStart, runsStatsCredits, runsWait } from './runs.js';
import {
  squidsAttachAccount,
  squidsCreate,
  squidsDeactivate,
  squidsDelete,
  squidsEmpty,
  squidsEstimate,
  squidsGet,
  squidsList,
  squidsUpdate,
} from './squids.js';
import { tasksAdd, tasksDelete, tasksList } from './tasks.js';

/** Every tool, in the order tools/list shows them: reads, writes (--allow-writes), then deletes and the billing reset. */
export function toolDefs(): ToolDef[] {
  return [
    // ---- read
    crawlersSearch,
    crawlersGet,
    crawlersParams,
    squidsList,
    squidsGet,
    squidsEstimate,
    runsList,
    runsGet,
    runsWait,
    ...runsStatsCredits,
    tasksList,
    resultsList,
    resultsUrl,
    accountsList,
    accountsGet,
    deliveryShow,
    billingAutoResetGet,
    balance,
    whoami,
    status,
    plan,
    // ---- write (--allow-writes)
    squidsCreate,
    tasksAdd,
    squidsUpdate,
    squidsAttachAccount,
    squidsEmpty,
    squidsDeactivate,
    runsStart,
    go,
    runsAbort,
    deliveryWebhook,
    deliveryEmail,
    deliverySheet,
    deliverySftp,
    deliveryS3,
    deliveryTest,
    deliveryApply,
    apply,
    // ---- deletes and the billing reset (--allow-writes=all, or named)
    tasksDelete,
    squidsDelete,
    billingAutoResetSet,
  ];
}
