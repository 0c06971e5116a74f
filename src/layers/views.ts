/**
 * Node views (spec 002, "Context Builder Functions"): each node asks for its view of the three
 * layers and gets the structured selection, the prompt text in the spec's layout fitted to its
 * token budget, the token count (and whether it is exact), and a report of every cut.
 */
import { expectObject, expectOptions, kindOf } from '../args.ts';
import { invalidParams } from '../errors.ts';
import { checkedCounter } from '../tokens/counter.ts';
import type { TokenCount, TokenCounter } from '../tokens/counter.ts';
import { estimator } from '../tokens/estimator.ts';
import { fitDocument } from './budget.ts';
import type { ViewBudgetReport } from './budget.ts';
import { composeView } from './compose.ts';
import type { ConversationSelection, EntitySelection, ReasoningSelection } from './compose.ts';
import { renderDocument } from './document.ts';
import { expectState, readingState } from './guard.ts';
import type { StatePart } from './guard.ts';
import type { LayeredContextState } from './model.ts';
import { ACT_VIEW, REPLY_VIEW, THINK_VIEW, UNDERSTAND_VIEW, defineNodeView, layerSchema } from './recipes.ts';
import { parseOrThrow } from './schema.ts';
import type { ConversationLayerRecipe, EntityLayerRecipe, LayerRecipe, ReasoningLayerRecipe, ViewRecipe } from './recipes.ts';

/** Options of every view builder. */
export interface ViewOptions {
  /**
   * Counts the rendered view's tokens. Default: ctxgate's estimator for `o200k_base`
   * (`estimator()`, counts marked `exact: false`), which needs the core loaded (`await loadCore()`);
   * pass `await exactCounter()` for exact counts or your model's own counter.
   */
  counter?: TokenCounter;
  /** Overrides the recipe's budget; 0 means unlimited. */
  budget?: number;
}

/** A node's view of the layered context. */
export interface NodeView {
  /** The recipe's node name. */
  node: string;
  /** What the node may see of entities, before budgeting; `null` when its recipe has no entity layer. */
  entity: EntitySelection | null;
  /** What the node may see of the conversation, before budgeting. */
  conversation: ConversationSelection | null;
  /** What the node may see of the reasoning trace, before budgeting. */
  reasoning: ReasoningSelection | null;
  /** The prompt text, fitted to the budget. */
  text: string;
  /** Tokens of `text`, with whether the count is exact and which encoder made it. */
  tokens: TokenCount;
  /** The budget applied and every cut made. */
  budget: ViewBudgetReport;
}

/** The four built-in nodes of spec 002. */
export type BuiltinNode = 'understand' | 'think' | 'act' | 'reply';

/** The built-in recipes by node name. */
export const BUILTIN_VIEWS: Readonly<Record<BuiltinNode, ViewRecipe>> = Object.freeze({
  understand: UNDERSTAND_VIEW,
  think: THINK_VIEW,
  act: ACT_VIEW,
  reply: REPLY_VIEW,
});

/** The parts of the state each layer reads. */
const LAYER_PARTS: Readonly<Record<LayerRecipe['layer'], readonly StatePart[]>> = {
  entity: ['entities', 'turn', 'settings'],
  conversation: ['conversation', 'turn'],
  reasoning: ['reasoning', 'curationLog', 'turn'],
};

/**
 * Checks, at entry, every part of `state` the layers of `recipe` read, in one call, so the rules
 * that span parts (a turn open in the conversation and the trace alike) apply when both are read.
 */
function expectStateFor(state: unknown, layers: readonly LayerRecipe[]): asserts state is LayeredContextState {
  expectState(state, [...new Set(layers.flatMap((layer) => LAYER_PARTS[layer.layer]))]);
}

/**
 * Builds any node's view from its recipe (a built-in one or one from `defineNodeView`). Throws
 * `CONTEXT_TOO_LARGE` when even the protected part exceeds the budget, `INVALID_PARAMS` for a
 * state that is not a layered context (naming the field, e.g. `state.entities`), a bad recipe, a
 * bad budget, a counter that is not a function or returns anything but a TokenCount, and
 * `NOT_INITIALIZED` when the default
 * estimator is used before the core is loaded.
 */
export function buildNodeView(state: LayeredContextState, recipe: ViewRecipe, options: ViewOptions = {}): NodeView {
  expectObject(state, 'state');
  // Recipes are tiny; validating every call keeps a hand-built one from rendering garbage.
  const checked = defineNodeView(recipe);
  expectStateFor(state, checked.layers);
  expectOptions(options);
  if (options.counter !== undefined && typeof options.counter !== 'function') {
    throw invalidParams('options.counter', 'must be a TokenCounter function; leave it out to use the built-in estimator.');
  }
  const counter = options.counter !== undefined ? checkedCounter(options.counter, 'options.counter') : estimator();
  const budget = options.budget ?? checked.budget;
  if (!Number.isSafeInteger(budget) || budget < 0) {
    throw invalidParams('options.budget', 'must be a whole number of tokens, 0 or more (0 means unlimited).');
  }
  const { selection, document } = readingState(state, () => composeView(state, checked));
  const fitted = fitDocument(document, budget, counter, checked.node);
  return { node: checked.node, ...selection, text: fitted.text, tokens: fitted.tokens, budget: fitted.budget };
}

/** Understand's view: every entity tier in full, the full conversation with pending state, its own curation history. */
export function buildUnderstandContext(state: LayeredContextState, options: ViewOptions = {}): NodeView {
  return buildNodeView(state, UNDERSTAND_VIEW, options);
}

/** Think's view: refs and labels, `DO NOT re-read`, recent turns with summary and pending state, last turns' steps and curation. */
export function buildThinkContext(state: LayeredContextState, options: ViewOptions = {}): NodeView {
  return buildNodeView(state, THINK_VIEW, options);
}

/** Act's view: full entity data (active and generated), recent turns, this turn's steps, results and notes. */
export function buildActContext(state: LayeredContextState, options: ViewOptions = {}): NodeView {
  return buildNodeView(state, ACT_VIEW, options);
}

/** Reply's view: entity labels, recent turns with engagement and pending state, what was just accomplished. */
export function buildReplyContext(state: LayeredContextState, options: ViewOptions = {}): NodeView {
  return buildNodeView(state, REPLY_VIEW, options);
}

function layerOf<L extends LayerRecipe>(kind: L['layer'], mode: BuiltinNode | L): L {
  if (typeof mode === 'string') {
    // Own keys only: `toString` is not a node.
    const recipe = Object.hasOwn(BUILTIN_VIEWS, mode) ? BUILTIN_VIEWS[mode] : undefined;
    if (recipe === undefined) throw invalidParams('mode', `must be understand, think, act, reply or a ${kind} layer recipe.`);
    const layer = recipe.layers.find((l) => l.layer === kind);
    if (layer === undefined) throw invalidParams('mode', `the ${mode} view has no ${kind} layer.`);
    return layer as L;
  }
  if (mode === null || typeof mode !== 'object' || Array.isArray(mode)) {
    throw invalidParams('mode', `must be understand, think, act, reply or a ${kind} layer recipe (got ${kindOf(mode)}).`);
  }
  // Validated like a recipe's layer (a complete one comes back equal), and of the section's kind.
  const layer = parseOrThrow(layerSchema, mode, 'mode');
  if (layer.layer !== kind) throw invalidParams('mode.layer', `must be '${kind}' to format this section.`);
  return layer as L;
}

function formatLayer<L extends LayerRecipe>(state: LayeredContextState, kind: L['layer'], mode: BuiltinNode | L): string {
  expectObject(state, 'state');
  const layer = layerOf<L>(kind, mode);
  expectStateFor(state, [layer]);
  return readingState(state, () => {
    const { document } = composeView(state, { node: 'format', budget: 0, layers: [layer], task: null });
    return renderDocument(document);
  });
}

/**
 * The `## Entity Context` section as a node sees it, unbudgeted (spec 002, `format_entity_context`).
 * `mode` is a node name or an entity layer recipe.
 */
export function formatEntityContext(state: LayeredContextState, mode: BuiltinNode | EntityLayerRecipe): string {
  return formatLayer<EntityLayerRecipe>(state, 'entity', mode);
}

/** The `## Conversation History` section as a node sees it, unbudgeted. */
export function formatConversationHistory(state: LayeredContextState, mode: BuiltinNode | ConversationLayerRecipe): string {
  return formatLayer<ConversationLayerRecipe>(state, 'conversation', mode);
}

/** The `## What Happened (Reasoning Trace)` section as a node sees it, unbudgeted. */
export function formatReasoningTrace(state: LayeredContextState, mode: BuiltinNode | ReasoningLayerRecipe): string {
  return formatLayer<ReasoningLayerRecipe>(state, 'reasoning', mode);
}
