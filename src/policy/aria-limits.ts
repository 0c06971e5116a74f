/**
 * The worked example of spec 000: ARIA's tool table, context segments and cache TTLs, as
 * deep-frozen limit objects. Your own tools declare theirs with `defineToolLimits`; these show the
 * shape and back the spec's tests.
 */
import { KB } from './bytes.ts';
import { defineLimits, defineToolLimits, GLOBAL_LIMITS } from './limits.ts';

/** Navigation tools (`UNIVERSE`). */
const UNIVERSE = defineLimits({
  routeMaxJumps: 100,
  routeMaxBytes: 5 * KB,
  routeSummarizeThreshold: 20,
  routeShowHead: 5,
  routeShowTail: 5,
  outputMaxSystems: 50,
  searchMaxLimit: 50,
  bordersMaxLimit: 50,
  loopMaxSystems: 50,
  outputMaxBytes: 3 * KB,
  activityCacheTtlMs: 10 * 60_000,
});

/** Market tools (`MARKET`). */
const MARKET = defineLimits({
  outputMaxOrders: 20,
  ordersMaxBytes: 3 * KB,
  arbitrageMaxOpportunities: 20,
  arbitrageMaxBytes: 5 * KB,
  priceCacheTtlMs: 5 * 60_000,
});

/** Static data tools (`SDE`). */
const SDE = defineLimits({
  searchMaxLimit: 20,
  searchMaxBytes: 2 * KB,
  agentSearchMaxLimit: 30,
  agentSearchMaxBytes: 3 * KB,
});

/** Skill planning (`SKILLS`). */
const SKILLS = defineLimits({
  easy80MaxSkills: 30,
  easy80MaxBytes: 3 * KB,
  treeGroupThreshold: 20,
});

/** Ship fitting (`FITTING`). The spec names the class but gives no numbers: global defaults. */
const FITTING = defineLimits({
  outputMaxItems: GLOBAL_LIMITS.listTruncateThreshold,
  outputMaxBytes: GLOBAL_LIMITS.toolResultMaxBytes,
});

/** Per-tool limits, spec 000 §2 "Per-Tool Output Limits", one entry per row. */
const TOOLS = defineToolLimits({
  'universe.route': {
    maxItems: UNIVERSE.routeMaxJumps,
    maxBytes: UNIVERSE.routeMaxBytes,
    truncation: {
      kind: 'summarizeMiddle',
      threshold: UNIVERSE.routeSummarizeThreshold,
      head: UNIVERSE.routeShowHead,
      tail: UNIVERSE.routeShowTail,
      // Spec §4: the summary shows the security breakdown and the lowest-security system.
      summarize: 'route',
    },
    listKeys: ['systems'],
    description: '100 jumps, 5 KB, summarize middle hops',
  },
  'universe.search': {
    maxItems: UNIVERSE.searchMaxLimit,
    maxBytes: UNIVERSE.outputMaxBytes,
    truncation: { kind: 'topN', by: 'relevance', order: 'desc' },
    listKeys: ['systems'],
    description: '50 systems, 3 KB, top-N by relevance',
  },
  'universe.borders': {
    maxItems: UNIVERSE.bordersMaxLimit,
    maxBytes: UNIVERSE.outputMaxBytes,
    truncation: { kind: 'topN', by: 'distance', order: 'asc' },
    listKeys: ['systems'],
    description: '50 systems, 3 KB, top-N by distance',
  },
  'universe.loop': {
    maxItems: UNIVERSE.loopMaxSystems,
    maxBytes: UNIVERSE.outputMaxBytes,
    truncation: { kind: 'bounded' },
    listKeys: ['systems'],
    description: '50 systems, 3 KB, algorithm-bounded',
  },
  'market.orders': {
    maxItems: MARKET.outputMaxOrders,
    maxBytes: MARKET.ordersMaxBytes,
    // Best price differs per side (highest buy, lowest sell): producers sort each side, we keep the head.
    truncation: { kind: 'head' },
    listKeys: ['buyOrders', 'sellOrders'],
    description: '20 per side, 3 KB, top by price',
  },
  'market.arbitrage': {
    maxItems: MARKET.arbitrageMaxOpportunities,
    maxBytes: MARKET.arbitrageMaxBytes,
    truncation: { kind: 'topN', by: 'margin', order: 'desc' },
    listKeys: ['opportunities'],
    description: '20 opportunities, 5 KB, top by margin',
  },
  'sde.search': {
    maxItems: SDE.searchMaxLimit,
    maxBytes: SDE.searchMaxBytes,
    truncation: { kind: 'topN', by: 'score', order: 'desc' },
    listKeys: ['items'],
    description: '20 items, 2 KB, top by match score',
  },
  'sde.agent_search': {
    maxItems: SDE.agentSearchMaxLimit,
    maxBytes: SDE.agentSearchMaxBytes,
    truncation: { kind: 'topN', by: 'distance', order: 'asc' },
    listKeys: ['agents'],
    description: '30 agents, 3 KB, top by distance',
  },
  'skills.easy_80_plan': {
    maxItems: SKILLS.easy80MaxSkills,
    maxBytes: SKILLS.easy80MaxBytes,
    // "Core skills first": the planner orders core skills first, so the head is the core.
    truncation: { kind: 'head' },
    listKeys: ['skills'],
    description: '30 skills, 3 KB, core skills first',
  },
});

/** One row of spec 000 §1 "Context Segments and Ordering". */
export interface ContextSegment {
  readonly name: string;
  readonly maxBytes: number;
  readonly priority: 'System' | 'Session' | 'Invocation' | 'Dynamic';
  readonly loadOrder: number;
  /** True when the size is per call rather than in total (tool results). */
  readonly perCall?: boolean;
}

const SEGMENTS: readonly ContextSegment[] = defineLimits({
  rows: [
    { name: 'CLAUDE.md', maxBytes: 20 * KB, priority: 'System', loadOrder: 1 },
    { name: 'Pilot Profile', maxBytes: 3 * KB, priority: 'Session', loadOrder: 2 },
    { name: 'Persona Files', maxBytes: 15 * KB, priority: 'Session', loadOrder: 3 },
    { name: 'Session Context', maxBytes: 2 * KB, priority: 'Session', loadOrder: 4 },
    { name: 'Skill Base', maxBytes: 5 * KB, priority: 'Invocation', loadOrder: 5 },
    { name: 'Skill Overlay', maxBytes: 2 * KB, priority: 'Invocation', loadOrder: 6 },
    { name: 'Tool Results', maxBytes: 10 * KB, priority: 'Dynamic', loadOrder: 7, perCall: true },
  ] as ContextSegment[],
}).rows;

/**
 * Spec 000's example policy: the domain classes (`UNIVERSE`, `MARKET`, `SDE`, `SKILLS`,
 * `FITTING`, `GLOBAL`), the per-tool table (`tools`) and the context segments (`segments`).
 * Everything is deep-frozen.
 */
export const ARIA_LIMITS = Object.freeze({
  UNIVERSE,
  MARKET,
  SDE,
  SKILLS,
  FITTING,
  GLOBAL: GLOBAL_LIMITS,
  tools: TOOLS,
  segments: SEGMENTS,
});
