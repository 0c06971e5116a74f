// The JSONL budget log's Deno file writer in Deno itself: lines appended to a file under a folder it
// creates, and its failures as typed errors, with the lines kept for a retry.
import { expect } from 'expect';
import { denoFileLineWriter } from '../../src/tokens/budget-log.deno.ts';
import { jsonlBudgetLog, type BudgetLogEntry } from '../../src/tokens/budget-log.ts';

const entry = (phase: number, runId = 'run-1'): BudgetLogEntry => ({
  run_id: runId,
  phase,
  original_tokens: 900,
  budget_tokens: 500,
  truncated_tokens: 498,
  was_truncated: true,
  ts: '2026-01-01T00:00:00.000Z',
  encoder: 'ctxgate-est/1',
});

Deno.test('denoFileLineWriter appends one JSON line per entry, creating the folders', async () => {
  const root = await Deno.makeTempDir();
  try {
    const path = `${root}/.agents/rpi/context-budget-log.jsonl`;
    const log = jsonlBudgetLog(denoFileLineWriter(path));
    log.record(entry(1));
    log.record(entry(2, 'run\u2028two'));
    await log.flush();
    const text = await Deno.readTextFile(path);
    const lines = text.split('\n');
    expect(lines.length).toBe(3);
    expect(lines[2]).toBe('');
    expect(JSON.parse(lines[0]!)).toEqual(entry(1));
    // U+2028 is escaped, so a reader splitting on Unicode line breaks still sees one record a line.
    expect(lines[1]).toContain('run\\u2028two');
    expect(JSON.parse(lines[1]!)).toEqual(entry(2, 'run\u2028two'));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test('denoFileLineWriter: a folder that is a file is STORAGE_FAILURE at once; a failed append rejects flush and keeps the line', async () => {
  const root = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${root}/afile`, 'x');
    let opened: unknown;
    try {
      denoFileLineWriter(`${root}/afile/rpi/log.jsonl`);
    } catch (error) {
      opened = error;
    }
    expect(opened).toMatchObject({ code: 'STORAGE_FAILURE', details: { operation: 'open' } });

    // The log file's place is taken by a folder: every append fails until it is removed.
    const path = `${root}/log.jsonl`;
    await Deno.mkdir(path);
    const log = jsonlBudgetLog(denoFileLineWriter(path));
    log.record(entry(1));
    const failed = await log.flush().then(() => 'resolved', (error: unknown) => error);
    expect(failed).toMatchObject({ code: 'STORAGE_FAILURE', details: { unwritten: 1 } });
    // Nothing was lost: once the folder is gone, the next flush writes the kept line.
    await Deno.remove(path);
    await log.flush();
    expect(JSON.parse((await Deno.readTextFile(path)).trim())).toEqual(entry(1));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test('denoFileLineWriter refuses a path that is not a non-empty string', () => {
  for (const bad of [5, '', 'a\u0000b']) {
    let error: unknown;
    try {
      denoFileLineWriter(bad as string);
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: 'INVALID_PARAMS' });
  }
});
