/**
 * View recipes: what one agent node sees of each layer, in which order, under which default
 * token budget. The four nodes of spec 002 are recipes like any other, so a host can declare its
 * own node (a critic, a router) with {@link defineNodeView} and get the same rendering, budgeting
 * and reporting.
 */
import { z } from 'zod';
import { parseOrThrow } from './schema.ts';

/**
 * How much of an entity a view shows. `refs`: the ref. `labels`: the label. `refs-labels`:
 * `ref: label`. `full`: every snapshot field (ref, type, label, status, turns, retention reason).
 * `data`: `full` plus the entity's data as canonical JSON.
 */
export type EntityDetail = 'none' | 'refs' | 'labels' | 'refs-labels' | 'full' | 'data';

/** How much of a turn's steps a view shows: outcomes only, every step field, or that plus results. */
export type StepDetail = 'none' | 'outcomes' | 'full' | 'data';

/** The entity layer of a recipe. */
export interface EntityLayerRecipe {
  layer: 'entity';
  active: EntityDetail;
  generated: EntityDetail;
  retained: EntityDetail;
  /** Adds the `DO NOT re-read: …` line (active entities already in context). */
  doNotReRead: boolean;
}

/** The conversation layer of a recipe. The current turn's message is always shown. */
export interface ConversationLayerRecipe {
  layer: 'conversation';
  /** How many of the kept recent turns to show (newest ones); 0 for none. */
  recentTurns: number;
  /** The running summary of older turns. */
  summary: boolean;
  /** The engagement summary. */
  engagement: boolean;
  /** The pending state. */
  pending: boolean;
  /** The router's decision on each recent turn. */
  routing: boolean;
}

/** The reasoning layer of a recipe. */
export interface ReasoningLayerRecipe {
  layer: 'reasoning';
  /** Steps of completed turns kept in the trace. */
  completedTurns: StepDetail;
  /** How many completed turns to show (newest ones). */
  completedTurnsLimit: number;
  /** Steps of the turn in progress. */
  currentTurn: StepDetail;
  /** The running summary of older reasoning. */
  summary: boolean;
  /** `current`: this turn's curation; `history`: Understand's own decision history. */
  curation: 'none' | 'current' | 'history';
  /** The latest conversation phase. */
  phase: boolean;
  /** The latest "user expressed". */
  userExpressed: boolean;
  /** A one-line `Last turn: …` digest of the latest completed turn. */
  lastTurnLine: boolean;
  /** The note the last step of this turn left for the next one. */
  prevStepNote: boolean;
  /** Why a turn was blocked, where one was. */
  blocked: boolean;
}

/** Any layer of a recipe. */
export type LayerRecipe = EntityLayerRecipe | ConversationLayerRecipe | ReasoningLayerRecipe;

/** A node's view recipe: its layers in render order, its default budget and optional task text. */
export interface ViewRecipe {
  /** Node name, used in reports and errors. */
  node: string;
  /** Default token budget of the rendered view; 0 means unlimited. */
  budget: number;
  /** Layers in render order; each layer at most once. */
  layers: LayerRecipe[];
  /** Rendered under `## Your Task` after a `---` rule, never cut. `null` for none. */
  task: string | null;
}

/** A recipe as a host declares it: every field but `node` and `layers` has a default. */
export type ViewRecipeInput = {
  node: string;
  budget?: number;
  task?: string | null;
  layers: Array<
    | ({ layer: 'entity' } & Partial<Omit<EntityLayerRecipe, 'layer'>>)
    | ({ layer: 'conversation' } & Partial<Omit<ConversationLayerRecipe, 'layer'>>)
    | ({ layer: 'reasoning' } & Partial<Omit<ReasoningLayerRecipe, 'layer'>>)
  >;
};

const entityDetail = z.enum(['none', 'refs', 'labels', 'refs-labels', 'full', 'data']);
const stepDetail = z.enum(['none', 'outcomes', 'full', 'data']);

/** Schema of one layer of a recipe; fills the defaults (everything off). */
export const layerSchema = z.discriminatedUnion('layer', [
  z.strictObject({
    layer: z.literal('entity'),
    active: entityDetail.default('none'),
    generated: entityDetail.default('none'),
    retained: entityDetail.default('none'),
    doNotReRead: z.boolean().default(false),
  }),
  z.strictObject({
    layer: z.literal('conversation'),
    recentTurns: z.int().min(0).max(1000).default(0),
    summary: z.boolean().default(false),
    engagement: z.boolean().default(false),
    pending: z.boolean().default(false),
    routing: z.boolean().default(false),
  }),
  z.strictObject({
    layer: z.literal('reasoning'),
    completedTurns: stepDetail.default('none'),
    completedTurnsLimit: z.int().min(0).max(1000).default(2),
    currentTurn: stepDetail.default('none'),
    summary: z.boolean().default(false),
    curation: z.enum(['none', 'current', 'history']).default('none'),
    phase: z.boolean().default(false),
    userExpressed: z.boolean().default(false),
    lastTurnLine: z.boolean().default(false),
    prevStepNote: z.boolean().default(false),
    blocked: z.boolean().default(false),
  }),
]);

const recipeSchema = z
  .strictObject({
    node: z.string().min(1, 'must not be empty'),
    budget: z.int().min(0).default(0),
    task: z.string().nullable().default(null),
    layers: z.array(layerSchema),
  })
  .superRefine((recipe, ctx) => {
    const seen = new Set<string>();
    recipe.layers.forEach((l, i) => {
      if (seen.has(l.layer)) ctx.addIssue({ code: 'custom', path: ['layers', i, 'layer'], message: `"${l.layer}" appears twice; list each layer once` });
      seen.add(l.layer);
    });
  });

function freeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const v of Object.values(value)) freeze(v);
    Object.freeze(value);
  }
  return value;
}

/**
 * Validates a host's node recipe, fills the defaults (everything off, budget 0 = unlimited) and
 * returns it frozen. Throws `INVALID_PARAMS` naming the bad field (e.g. `recipe.layers[1].pending`).
 *
 * @example
 * const critic = defineNodeView({ node: 'critic', budget: 1500, layers: [
 *   { layer: 'reasoning', currentTurn: 'outcomes', blocked: true },
 *   { layer: 'conversation', recentTurns: 1, pending: true },
 * ] });
 */
export function defineNodeView(recipe: ViewRecipeInput): ViewRecipe {
  return freeze(parseOrThrow(recipeSchema, recipe, 'recipe') as ViewRecipe);
}

/**
 * Understand (spec 002): all three entity tiers in full for curation, the full conversation with
 * pending state, and its own curation history as reasoning.
 */
export const UNDERSTAND_VIEW: ViewRecipe = defineNodeView({
  node: 'understand',
  budget: 3000,
  layers: [
    { layer: 'entity', active: 'full', generated: 'full', retained: 'full' },
    { layer: 'conversation', recentTurns: 2, summary: true, engagement: true, pending: true, routing: true },
    { layer: 'reasoning', curation: 'history' },
  ],
});

/**
 * Think (spec 002): refs and labels of active and generated entities, refs only of retained ones,
 * and the `DO NOT re-read` list; recent turns, summary, engagement and (critical) the pending
 * state; the last turns' steps in full, this turn's curation, the phase and what the user expressed.
 */
export const THINK_VIEW: ViewRecipe = defineNodeView({
  node: 'think',
  budget: 3000,
  layers: [
    { layer: 'entity', active: 'refs-labels', generated: 'refs-labels', retained: 'refs', doNotReRead: true },
    { layer: 'conversation', recentTurns: 2, summary: true, engagement: true, pending: true },
    {
      layer: 'reasoning',
      completedTurns: 'full',
      completedTurnsLimit: 2,
      summary: true,
      curation: 'current',
      phase: true,
      userExpressed: true,
      lastTurnLine: true,
      blocked: true,
    },
  ],
});

/**
 * Act (spec 002): full data of active and generated entities (no retained), recent turns only,
 * and this turn's steps with their notes and full results plus the previous step's note.
 */
export const ACT_VIEW: ViewRecipe = defineNodeView({
  node: 'act',
  budget: 6000,
  layers: [
    { layer: 'entity', active: 'data', generated: 'data' },
    { layer: 'conversation', recentTurns: 2 },
    { layer: 'reasoning', currentTurn: 'data', prevStepNote: true },
  ],
});

/**
 * Reply (spec 002): labels of active and generated entities, recent turns, engagement and pending
 * state, and what this turn accomplished (step outcomes) with the phase and what the user expressed.
 */
export const REPLY_VIEW: ViewRecipe = defineNodeView({
  node: 'reply',
  budget: 2000,
  layers: [
    { layer: 'entity', active: 'labels', generated: 'labels' },
    { layer: 'conversation', recentTurns: 2, engagement: true, pending: true },
    { layer: 'reasoning', currentTurn: 'outcomes', phase: true, userExpressed: true, blocked: true },
  ],
});
