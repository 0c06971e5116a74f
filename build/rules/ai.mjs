// AI and model providers.
import { C, F, P, prefixed } from './dsl.mjs';

export default [
  prefixed('openai-project-key', 'OpenAI project API key (sk-proj-)', 'sk-proj-', [['b64url', 40, 200]], {
    pos: [P('OPENAI_API_KEY=', 'sk-proj-' + F(C.b64url, 156)), P('client = OpenAI(api_key="', 'sk-proj-' + F(C.alnum, 48), '")')],
    neg: ['sk-proj-' + F(C.alnum, 10), 'sk-proj-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'],
  }, { entropy: 3.5 }),
  prefixed('openai-service-account-key', 'OpenAI service account key (sk-svcacct-)', 'sk-svcacct-', [['b64url', 40, 200]], {
    pos: [P('OPENAI_API_KEY=', 'sk-svcacct-' + F(C.b64url, 120))],
    neg: ['sk-svcacct-' + F(C.alnum, 10)],
  }, { entropy: 3.5 }),
  prefixed('openai-admin-key', 'OpenAI admin key (sk-admin-)', 'sk-admin-', [['b64url', 40, 200]], {
    pos: [P('OPENAI_ADMIN_KEY=', 'sk-admin-' + F(C.b64url, 120))],
    neg: ['sk-admin-' + F(C.alnum, 10)],
  }, { entropy: 3.5 }),
  prefixed('openai-api-key', 'OpenAI user API key (sk-, 48 characters)', 'sk-', [['alnum', 48]], {
    pos: [P('openai.api_key = "', 'sk-' + F(C.alnum, 20) + 'T3BlbkFJ' + F(C.alnum, 20), '"')],
    neg: ['sk-' + F(C.alnum, 20), 'sk-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx', 'risk-' + F(C.alnum, 48)],
  }, { entropy: 3.5 }),
  prefixed('anthropic-api-key', 'Anthropic API key (sk-ant-api03-)', 'sk-ant-api03-', [['b64url', 80, 120]], {
    pos: [P('ANTHROPIC_API_KEY=', 'sk-ant-api03-' + F(C.b64url, 93) + 'AA'), P('x-api-key: ', 'sk-ant-api03-' + F(C.b64url, 95))],
    neg: ['sk-ant-api03-' + F(C.b64url, 20), 'sk-ant-...'],
  }, { entropy: 3.5 }),
  prefixed('anthropic-admin-key', 'Anthropic admin API key (sk-ant-admin01-)', 'sk-ant-admin01-', [['b64url', 80, 120]], {
    pos: [P('ANTHROPIC_ADMIN_KEY=', 'sk-ant-admin01-' + F(C.b64url, 95))],
    neg: ['sk-ant-admin01-' + F(C.b64url, 20)],
  }, { entropy: 3.5 }),
  prefixed('anthropic-oauth-token', 'Anthropic OAuth token (sk-ant-oat01-)', ['sk-ant-oat01-', 'sk-ant-ort01-'], [['b64url', 80, 120]], {
    pos: [P('CLAUDE_CODE_OAUTH_TOKEN=', 'sk-ant-oat01-' + F(C.b64url, 95))],
    neg: ['sk-ant-oat01-' + F(C.b64url, 20)],
  }, { entropy: 3.5 }),
  prefixed('openrouter-api-key', 'OpenRouter API key (sk-or-v1-)', 'sk-or-v1-', [['hex', 64]], {
    pos: [P('OPENROUTER_API_KEY=', 'sk-or-v1-' + F(C.hex, 64))],
    neg: ['sk-or-v1-' + F(C.hex, 20)],
  }),
  prefixed('huggingface-access-token', 'Hugging Face access token (hf_)', 'hf_', [['alpha', 34]], {
    pos: [P('HF_TOKEN=', 'hf_' + F(C.alpha, 34)), P('login(token="', 'hf_' + F(C.alpha, 34), '")')],
    neg: ['hf_' + F(C.alpha, 20), 'hf_hub_download', 'hf_' + F(C.alpha, 40)],
  }, { entropy: 3.5 }),
  prefixed('huggingface-org-token', 'Hugging Face organization API token (api_org_)', 'api_org_', [['alpha', 34]], {
    pos: [P('HF_ORG_TOKEN=', 'api_org_' + F(C.alpha, 34))],
    neg: ['api_org_' + F(C.alpha, 10)],
  }, { entropy: 3.5 }),
  prefixed('groq-api-key', 'Groq API key (gsk_)', 'gsk_', [['alnum', 52]], {
    pos: [P('GROQ_API_KEY=', 'gsk_' + F(C.alnum, 52))],
    neg: ['gsk_' + F(C.alnum, 20)],
  }),
  prefixed('perplexity-api-key', 'Perplexity API key (pplx-)', 'pplx-', [['alnum', 48]], {
    pos: [P('PERPLEXITY_API_KEY=', 'pplx-' + F(C.alnum, 48))],
    neg: ['pplx-' + F(C.alnum, 10)],
  }),
  prefixed('replicate-api-token', 'Replicate API token (r8_)', 'r8_', [['alnum', 37]], {
    pos: [P('REPLICATE_API_TOKEN=', 'r8_' + F(C.alnum, 37))],
    neg: ['r8_' + F(C.alnum, 10)],
  }),
  prefixed('xai-api-key', 'xAI API key (xai-)', 'xai-', [['alnum', 80]], {
    pos: [P('XAI_API_KEY=', 'xai-' + F(C.alnum, 80))],
    neg: ['xai-' + F(C.alnum, 20)],
  }),
  prefixed('langsmith-api-key', 'LangSmith API key (lsv2_)', ['lsv2_pt_', 'lsv2_sk_'], [['hex', 32], '_', ['hex', 10]], {
    pos: [P('LANGSMITH_API_KEY=', 'lsv2_pt_' + F(C.hex, 32) + '_' + F(C.hex, 10))],
    neg: ['lsv2_pt_' + F(C.hex, 32)],
  }),
  prefixed('sk-style-api-key', 'API key in the sk-… style of several AI providers (length unknown)', 'sk-', [['b64url', 32, 200]], {
    pos: [P('DEEPSEEK_API_KEY=', 'sk-' + F(C.hex, 32))],
    neg: ['sk-' + F(C.alnum, 10), 'task-' + F(C.alnum, 40), 'sk-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'],
  }, { confidence: 'medium', entropy: 3.5 }),
];
