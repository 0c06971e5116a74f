// Shared scenario and deterministic counters for the layers tests.
import type { TokenCounter } from '../../src/tokens/counter.ts';
import { curateEntities, registerEntity, referenceEntities } from '../../src/layers/entities.ts';
import type { LayeredContextState } from '../../src/layers/model.ts';
import { recordStep, recordThink, recordTurnMeta } from '../../src/layers/trace.ts';
import { beginTurn, createLayeredContext, endTurn } from '../../src/layers/turns.ts';

/** One token per started group of four UTF-16 units: simple, deterministic, easy to check by hand. */
export const charCounter: TokenCounter = (text) => ({ tokens: Math.ceil(text.length / 4), exact: false, encoder: 'test-chars/4' });

/** One token per whitespace-separated word, reported as exact (to test the flag is passed through). */
export const wordCounter: TokenCounter = (text) => ({ tokens: (text.match(/\S+/g) ?? []).length, exact: true, encoder: 'test-words' });

/**
 * A recipe-assistant conversation: turns 1–3 completed (turn 1 folded into the summaries), turn 4
 * open with Think's plan, one Act step and Understand's curation recorded.
 */
export async function scenario(): Promise<LayeredContextState> {
  let s = createLayeredContext();

  s = beginTurn(s, { user: 'Find me some vegetarian recipes.', timestamp: '2026-01-13T10:00:00Z' });
  s = recordThink(s, { decision: 'plan_direct', goal: 'Find vegetarian recipes' });
  s = registerEntity(s, { ref: 'recipe_1', type: 'recipes', label: 'Lemon Herb Chickpeas', status: 'read', data: { minutes: 25, tags: ['vegetarian', 'quick'] } });
  s = registerEntity(s, { ref: 'recipe_2', type: 'recipes', label: 'Mushroom Risotto', status: 'read', data: { minutes: 50, tags: ['vegetarian'] } });
  s = registerEntity(s, { ref: 'recipe_3', type: 'recipes', label: 'Tofu Stir Fry', status: 'read', data: { minutes: 20, tags: ['vegan'] } });
  s = recordStep(s, { type: 'read', subdomain: 'recipes', description: 'Find vegetarian recipes', outcome: 'Found 3 recipes', entitiesInvolved: ['recipe_1', 'recipe_2', 'recipe_3'] });
  s = recordTurnMeta(s, { conversationPhase: 'exploring', userExpressed: 'wants vegetarian food' });
  s = (await endTurn(s, { assistantSummary: 'Listed three vegetarian recipes: chickpeas, risotto, stir fry.', routing: { agent: 'recipes' }, engagementSummary: 'Planning vegetarian dinners for the week.' })).state;

  s = beginTurn(s, { user: 'The chickpeas sound good. Make me a shopping list for them.', timestamp: '2026-01-13T10:01:00Z' });
  s = curateEntities(s, [
    { ref: 'recipe_1', action: 'retain', reason: 'user chose this recipe' },
    { ref: 'recipe_3', action: 'demote', reason: 'user passed on it' },
  ]);
  s = recordThink(s, { decision: 'plan_direct', goal: 'Shopping list for recipe_1' });
  s = referenceEntities(s, ['recipe_1']);
  s = recordStep(s, { type: 'read', subdomain: 'recipes', description: 'Read recipe_1 ingredients', outcome: 'Read 1 recipe', entitiesInvolved: ['recipe_1'], note: 'needs chickpeas, lemon, parsley' });
  s = registerEntity(s, { ref: 'gen_list_1', type: 'shopping_lists', label: 'Chickpea shopping list', status: 'generated', data: { items: ['chickpeas', 'lemon', 'parsley'] } });
  s = recordStep(s, { type: 'generate', subdomain: 'shopping_lists', description: 'Draft the list', outcome: 'Drafted a list of 3 items', entitiesInvolved: ['gen_list_1'] });
  s = recordTurnMeta(s, { conversationPhase: 'narrowing', userExpressed: 'prefers quick meals' });
  s = (await endTurn(s, {
    assistantSummary: 'Drafted a 3-item shopping list and offered to save it.',
    routing: { agent: 'shopping' },
    pending: { type: 'propose', context: 'Save the drafted shopping list gen_list_1', questions: ['Save it to your lists?'] },
  })).state;

  s = beginTurn(s, { user: 'Yes, save it. Add milk too.', timestamp: '2026-01-13T10:02:00Z' });
  s = recordThink(s, { decision: 'plan_direct', goal: 'Save the list with milk' });
  s = registerEntity(s, { ref: 'list_1', type: 'shopping_lists', label: 'Chickpea shopping list', status: 'created', data: { items: ['chickpeas', 'lemon', 'parsley', 'milk'] } });
  s = curateEntities(s, [{ ref: 'gen_list_1', action: 'demote', reason: 'saved as list_1' }]);
  s = recordStep(s, { type: 'write', subdomain: 'shopping_lists', description: 'Save the list with milk', outcome: 'Created list_1 with 4 items', entitiesInvolved: ['list_1'], note: 'list saved' });
  s = recordTurnMeta(s, { conversationPhase: 'confirming' });
  s = (await endTurn(s, {
    assistantSummary: 'Saved the list with milk added. Asked how many more dinners to plan.',
    pending: { type: 'clarify', context: 'How many more dinners to plan this week', questions: ['How many dinners?', 'Anything to avoid?'] },
  })).state;

  s = beginTurn(s, { user: 'What else could I cook this week? Something quick.', timestamp: '2026-01-13T10:03:00Z' });
  s = curateEntities(s, [{ ref: 'list_1', action: 'retain', reason: 'user may add more items' }]);
  s = recordThink(s, { decision: 'plan_direct', goal: 'Suggest more quick vegetarian recipes' });
  s = registerEntity(s, { ref: 'recipe_4', type: 'recipes', label: 'Caprese Pasta', status: 'read', data: { minutes: 15, tags: ['vegetarian', 'quick'] } });
  s = recordStep(s, { type: 'read', subdomain: 'recipes', description: 'Find quick vegetarian recipes', outcome: 'Found 1 new recipe', entitiesInvolved: ['recipe_4'], note: 'skip recipe_1; already planned', result: { ids: ['recipe_4'], total: 1 } });
  s = recordTurnMeta(s, { userExpressed: 'wants something quick' });
  return s;
}

/**
 * Non-ASCII everywhere (accents, CJK, emoji with surrogate pairs, ZWJ sequences, RTL), with one
 * long recent turn that has no spaces or sentence ends, so a tight budget must cut it at a
 * character boundary without splitting a surrogate pair.
 */
export async function unicodeScenario(): Promise<LayeredContextState> {
  let s = createLayeredContext();
  s = beginTurn(s, { user: 'Trouve-moi des crêpes végétariennes 🥞, s’il te plaît.', timestamp: '2026-01-14T08:00:00Z' });
  s = recordThink(s, { decision: 'plan_direct', goal: 'Crêpes végétariennes' });
  s = registerEntity(s, { ref: 'crêpe_1', type: 'recipes', label: 'Crêpes au sarrasin 🥞', status: 'read', data: { 'née': 'Bretagne', tags: ['végé', '快'], émoji: '👩‍🍳' } });
  s = registerEntity(s, { ref: 'ramen_1', type: 'recipes', label: '味噌ラーメン（野菜）', status: 'read', data: { minutes: 30 } });
  s = recordStep(s, { type: 'read', subdomain: 'recipes', description: 'Chercher des crêpes', outcome: 'Trouvé 2 recettes ✅', entitiesInvolved: ['crêpe_1', 'ramen_1'] });
  s = recordTurnMeta(s, { conversationPhase: 'exploring', userExpressed: 'aime le sarrasin' });
  s = (await endTurn(s, { assistantSummary: 'Deux recettes : crêpes au sarrasin 🥞 et ラーメン.', engagementSummary: 'Cuisine végétarienne — semaine 🗓️.' })).state;

  s = beginTurn(s, { user: '日本語で説明してください😀😀😀野菜のラーメンの作り方を全部教えてください🍜🍜🍜味噌と醤油の違いも知りたいです👩‍👩‍👧‍👦', timestamp: '2026-01-14T08:01:00Z' });
  s = recordThink(s, { decision: 'plan_direct', goal: 'ラーメンの説明' });
  s = referenceEntities(s, ['ramen_1']);
  s = recordStep(s, { type: 'read', subdomain: 'recipes', description: 'ラーメンを読む', outcome: '1件読んだ', entitiesInvolved: ['ramen_1'], note: 'مرحبا — RTL note' });
  s = recordTurnMeta(s, { conversationPhase: 'narrowing' });
  s = (await endTurn(s, {
    assistantSummary: '味噌ラーメンの手順を説明しました😀次はどうしますか🍜',
    pending: { type: 'ask_user', context: 'Préférence : miso ou shōyu ?', questions: ['Miso 🍜 ?', 'Shōyu ?'] },
  })).state;

  s = beginTurn(s, { user: 'Ñoño: miso, s’il vous plaît! 🙏', timestamp: '2026-01-14T08:02:00Z' });
  s = recordThink(s, { decision: 'plan_direct', goal: 'Miso' });
  s = recordStep(s, { type: 'generate', subdomain: 'shopping_lists', description: 'Liste 🛒', outcome: 'Liste générée', entitiesInvolved: [], result: { 'ü': 1, 'a': [2, '三'], 'Z': null } });
  return s;
}
