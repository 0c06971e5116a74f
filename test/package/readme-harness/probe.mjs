// What a README block gets for 'ctxgate' (see hooks.mjs): the installed package, every export
// unchanged except that the calls of buildContext, indexProject and createCtxgate are recorded,
// and the engines createCtxgate returns are tracked. No export is added.
import * as ctxgate from 'ctxgate';
import { observe, record, track } from './track.mjs';

export * from 'ctxgate';

const recorded = (name, wrap = (v) => v) =>
  function (...args) {
    const entry = { fn: name };
    record.calls.push(entry);
    const out = observe(entry, ctxgate[name], this, args);
    return out && typeof out.then === 'function' ? out.then(wrap) : wrap(out);
  };

export const buildContext = recorded('buildContext');
export const indexProject = recorded('indexProject');
export const createCtxgate = recorded('createCtxgate', track);
