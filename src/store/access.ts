import { expectObject, expectOptions, expectString, wrongKind } from '../args.ts';
import { ContextViolationError, invalidParams } from '../errors.ts';
import type { CtxgateError } from '../errors.ts';
import type { ContextLimits } from './limits.ts';
import { ContextSizeChecker } from './limits.ts';
import type { AgentContext, Namespace } from './model.ts';
import { isNamespace, validateField } from './model.ts';
import { jsonEqual } from './json-data.ts';
import { writeMember } from './write-member.ts';

/** Write permission of one agent: a list of namespaces, or `'*'` for all of them. */
export type NamespaceGrant = readonly Namespace[] | '*';

/** The spec's default permission table. The orchestrator may write everywhere. */
export const DEFAULT_AGENT_PERMISSIONS: Readonly<Record<string, NamespaceGrant>> = Object.freeze<Record<string, NamespaceGrant>>({
  intent_detection: ['reasoning', 'diagnostics', 'audit'],
  reasoning_structure: ['reasoning', 'diagnostics', 'audit'],
  retrieval_planner: ['retrieval', 'diagnostics', 'audit'],
  context_synthesizer: ['enrichment', 'diagnostics', 'audit'],
  inference: ['reasoning', 'enrichment', 'llm', 'diagnostics', 'audit'],
  validation: ['diagnostics', 'audit'],
  summarization: ['reasoning', 'diagnostics', 'audit'],
  orchestrator: '*',
});

/**
 * Metadata keys any registered agent may write. The rest of `metadata` (session, trace, creation
 * time) identifies the session, so the spec reserves it for the orchestrator (wildcard grant).
 */
const OPEN_METADATA_KEYS: ReadonlySet<string> = new Set(['locale']);

/** Options of {@link ContextValidator}. */
export interface ContextValidatorOptions {
  /** Agents to register up front; defaults to {@link DEFAULT_AGENT_PERMISSIONS}. Pass `{}` for none. */
  agents?: Readonly<Record<string, NamespaceGrant>>;
  /** Size limits checked before every write; defaults to the spec's. */
  limits?: Partial<ContextLimits>;
}

/**
 * Guards writes to an {@link AgentContext} (spec `ContextValidator`): each agent writes only its
 * registered namespaces, every agent may read everything, and each write is validated and
 * size-checked before the context is touched.
 */
export class ContextValidator {
  private readonly grants = new Map<string, ReadonlySet<Namespace> | '*'>();
  /** The size checker applied before each write. */
  readonly sizeChecker: ContextSizeChecker;

  /**
   * Creates a validator with the default (or given) agents registered. INVALID_PARAMS unless
   * `options` is an object or undefined (`options`) and its `agents`, if given, an object mapping
   * agent ids to grants (`options.agents`; `{}` registers none, anything else is refused rather
   * than silently registering no agent).
   */
  constructor(options: ContextValidatorOptions = {}) {
    expectOptions(options);
    const agents: unknown = options.agents === undefined ? DEFAULT_AGENT_PERMISSIONS : options.agents;
    expectObject(agents, 'options.agents');
    this.sizeChecker = new ContextSizeChecker(options.limits);
    for (const [agentId, grant] of Object.entries(agents)) this.registerAgent(agentId, grant as NamespaceGrant);
  }

  /** Registers (or replaces) the namespaces an agent may write. `'*'` grants all of them. */
  registerAgent(agentId: string, namespaces: NamespaceGrant | readonly string[]): void {
    if (typeof agentId !== 'string' || agentId === '') throw invalidParams('agentId', 'must be a non-empty string');
    if (namespaces === '*') {
      this.grants.set(agentId, '*');
      return;
    }
    if (!Array.isArray(namespaces)) throw invalidParams('namespaces', "must be an array of namespace names or '*'");
    const set = new Set<Namespace>();
    for (const [i, ns] of namespaces.entries()) {
      if (ns === '*') {
        this.grants.set(agentId, '*');
        return;
      }
      if (!isNamespace(ns)) throw notNamespace(`namespaces[${i}]`, ns);
      set.add(ns);
    }
    this.grants.set(agentId, set);
  }

  /** Removes an agent; it can no longer write. */
  unregisterAgent(agentId: string): boolean {
    return this.grants.delete(agentId);
  }

  /** The namespaces an agent may write (all seven for a wildcard), or undefined if unregistered. */
  allowedNamespaces(agentId: string): Namespace[] | '*' | undefined {
    const grant = this.grants.get(agentId);
    return grant === undefined || grant === '*' ? grant : [...grant];
  }

  /** Every agent may read every namespace (spec: read access for all). */
  canRead(_agentId: string, namespace: Namespace): boolean {
    return isNamespace(namespace);
  }

  /** True if the agent may write `namespace.key`. */
  canWrite(agentId: string, namespace: Namespace, key: string): boolean {
    const grant = this.grants.get(agentId);
    if (grant === undefined) return false;
    if (grant === '*') return true;
    if (namespace === 'metadata') return OPEN_METADATA_KEYS.has(key);
    return grant.has(namespace);
  }

  /**
   * Throws {@link ContextViolationError} unless the agent may write `namespace.key` (spec
   * `ValidateWrite`). INVALID_PARAMS unless `agentId` and `key` are strings and `namespace` is a
   * namespace name.
   */
  validateWrite(agentId: string, namespace: Namespace, key: string): void {
    expectString(agentId, 'agentId');
    if (!isNamespace(namespace)) throw notNamespace('namespace', namespace);
    expectString(key, 'key');
    if (this.canWrite(agentId, namespace, key)) return;
    const registered = this.grants.has(agentId);
    const message = registered
      ? `agent "${agentId}" may not write ${namespace}.${key}; write only to its registered namespaces or register it for ${namespace}`
      : `agent "${agentId}" is not registered; call registerAgent before it writes to the context`;
    throw new ContextViolationError(message, { details: { agentId, namespace, key, registered } });
  }

  /**
   * Sets `context[namespace][key] = value` for `agentId` (spec `SafeSet`), in this order: permission,
   * validation of the value against the key's type (no forbidden keys at any depth), size limits.
   * Any refusal leaves the context untouched. The stored value is a copy, so later changes to
   * `value` by the caller do not bypass these checks.
   */
  safeSet(context: AgentContext, agentId: string, namespace: Namespace, key: string, value: unknown): void {
    this.validateWrite(agentId, namespace, key);
    validateField(namespace, key, value);
    if (namespace === 'audit') assertAppendOnly(context, agentId, key, value);
    const copy = value === undefined ? undefined : structuredClone(value);
    this.sizeChecker.checkWrite(context, namespace, key, copy);
    writeMember(context[namespace] as unknown as Record<string, unknown>, key, copy, `context.${namespace}`);
  }
}

/**
 * The audit trail is append-only through `safeSet` (spec: "Complete audit trail", written "via audit
 * system"): an agent may add runs and diffs after the recorded ones, never drop or change one, so
 * an agent granted `audit` cannot erase what the others did. {@link AuditTrail} keeps its own cap
 * (the newest 100) and writes past this check.
 */
function assertAppendOnly(context: AgentContext, agentId: string, key: string, value: unknown): void {
  const recorded = (context.audit as unknown as Record<string, unknown> | undefined)?.[key];
  if (!Array.isArray(recorded) || recorded.length === 0) return;
  const next = Array.isArray(value) ? value : [];
  const kept = next.length >= recorded.length && recorded.every((entry, i) => jsonEqual(entry, next[i]));
  if (kept) return;
  throw new ContextViolationError(
    `agent "${agentId}" may not remove or change recorded audit.${key} entries (the audit trail is append-only); add entries after the ${recorded.length} recorded, or record through AuditTrail`,
    { details: { agentId, namespace: 'audit', key, registered: true, appendOnly: true } },
  );
}

/** INVALID_PARAMS: `field` is not a namespace name; a string is quoted (as before), anything else named by its kind. */
function notNamespace(field: string, value: unknown): CtxgateError {
  return typeof value === 'string'
    ? invalidParams(field, `"${value}" is not a namespace`)
    : wrongKind(field, 'a namespace name', value);
}
