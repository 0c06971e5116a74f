// Labelled corpus for the secret-scanning bench. Deterministic (seeded).
//
// Planted secrets are fresh random values written from each credential's published format, by
// generators in this file that do not read the scanner's rules or their examples, so recall is
// measured on values the rules were not written against. They sit in realistic files of many
// types (.env, YAML, JSON, TOML, shell, TS, Python, Go, logs, Markdown), some with CRLF line ends,
// non-ASCII prose before secrets, very long minified lines and a few multi-megabyte logs.
//
// Negatives are only genuine non-secrets: placeholders and references, vendors' published example
// keys, git SHAs, content hashes, lockfile integrity strings, UUIDs, data URLs, source maps,
// minified identifiers and names in code (types, variables, lists of field names). (A rule's own negative examples are not used: many are secret-looking
// values that are merely not *that* rule's format, e.g. a 30-character value assigned to
// `aws_secret_access_key`, which a redactor should still hide.)

function rng(seed) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
}

const UP = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LO = 'abcdefghijklmnopqrstuvwxyz';
const DG = '0123456789';
const CS = {
  alnum: UP + LO + DG,
  upnum: UP + DG,
  lownum: LO + DG,
  alpha: UP + LO,
  hex: '0123456789abcdef',
  HEX: '0123456789ABCDEF',
  b32: UP + '234567',
  b64: UP + LO + DG + '+/',
  b64url: UP + LO + DG + '-_',
  digit: DG,
  pass: UP + LO + DG + '!#%^*-_.+@$&',
};

/** Builds the corpus: `{ files: [{ path, text, planted: [{ kind, family, start, end }] }], bytes }`. */
export function generateSecretsCorpus({ seed = 42, smallFiles = 480, bigFiles = 2, bigFileBytes = 3 * 2 ** 20 } = {}) {
  const rand = rng(seed);
  const int = (a, b) => a + Math.floor(rand() * (b - a + 1));
  const pick = (a) => a[Math.floor(rand() * a.length)];
  const r = (cs, n) => {
    let s = '';
    for (let i = 0; i < n; i++) s += cs[Math.floor(rand() * cs.length)];
    return s;
  };
  const b64 = (bytes) => btoa(String.fromCharCode(...bytes));
  const randBytes = (n) => Array.from({ length: n }, () => int(0, 255));
  const b64url = (s) => btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  const uuid = () => `${r(CS.hex, 8)}-${r(CS.hex, 4)}-4${r(CS.hex, 3)}-${pick('89ab')}${r(CS.hex, 3)}-${r(CS.hex, 12)}`;
  const pemBody = (n) => {
    const raw = b64(randBytes(n));
    return raw.match(/.{1,64}/g).join('\n');
  };

  // ---- secret kinds: [family, kind, generator -> { value, names: variable names, raw?: text with the value } ] ----
  // `names` are what the value is usually assigned to; `raw` (optional) is a complete snippet in
  // which `value` appears once (for kinds that are not plain assignments).
  const KINDS = [
    ['cloud', 'aws-access-key-id', () => ({ value: 'AKIA' + r(CS.b32, 16), names: ['AWS_ACCESS_KEY_ID', 'aws_access_key_id', 'accessKeyId'] })],
    ['cloud', 'aws-secret-access-key', () => ({ value: r(CS.b64, 40), names: ['AWS_SECRET_ACCESS_KEY', 'aws_secret_access_key', 'secretAccessKey'] })],
    ['cloud', 'gcp-api-key', () => ({ value: 'AIza' + r(CS.b64url, 35), names: ['GOOGLE_API_KEY', 'mapsApiKey', 'firebase_api_key'] })],
    ['cloud', 'gcp-service-account', () => {
      const value = `-----BEGIN PRIVATE KEY-----\\n${pemBody(900).replace(/\n/g, '\\n')}\\n-----END PRIVATE KEY-----\\n`;
      return { value, raw: `{\n  "type": "service_account",\n  "project_id": "acme-prod-${r(CS.lownum, 6)}",\n  "private_key_id": "${r(CS.hex, 40)}",\n  "private_key": "${value}",\n  "client_email": "deployer@acme-prod.iam.gserviceaccount.com"\n}` };
    }],
    ['cloud', 'azure-storage-key', () => {
      const value = b64(randBytes(64));
      return { value, raw: `AZURE_STORAGE_CONNECTION_STRING="DefaultEndpointsProtocol=https;AccountName=acme${r(CS.lownum, 6)};AccountKey=${value};EndpointSuffix=core.windows.net"` };
    }],
    ['cloud', 'azure-sas-signature', () => {
      const value = encodeURIComponent(b64(randBytes(32)));
      return { value, raw: `https://acme.blob.core.windows.net/backups/db.bak?sv=2022-11-02&ss=b&srt=o&sp=r&se=2025-01-01T00:00:00Z&st=2024-01-01T00:00:00Z&spr=https&sig=${value}` };
    }],
    ['cloud', 'digitalocean-token', () => ({ value: 'dop_v1_' + r(CS.hex, 64), names: ['DIGITALOCEAN_TOKEN', 'do_token'] })],
    ['cloud', 'vault-token', () => ({ value: 'hvs.CAES' + r(CS.b64url, 91), names: ['VAULT_TOKEN'] })],
    ['code hosts & registries', 'github-classic-pat', () => ({ value: 'ghp_' + r(CS.alnum, 36), names: ['GITHUB_TOKEN', 'GH_TOKEN', 'github_token'] })],
    ['code hosts & registries', 'github-oauth', () => ({ value: 'gho_' + r(CS.alnum, 36), names: ['GITHUB_OAUTH_TOKEN'] })],
    ['code hosts & registries', 'github-app-installation', () => ({ value: 'ghs_' + r(CS.alnum, 36), names: ['GH_INSTALLATION_TOKEN'] })],
    ['code hosts & registries', 'github-fine-grained-pat', () => ({ value: 'github_pat_' + r(CS.alnum, 22) + '_' + r(CS.alnum, 59), names: ['GITHUB_PAT'] })],
    ['code hosts & registries', 'gitlab-pat', () => ({ value: 'glpat-' + r(CS.b64url, 20), names: ['GITLAB_TOKEN', 'CI_PUSH_TOKEN'] })],
    ['code hosts & registries', 'npm-token', () => ({ value: 'npm_' + r(CS.alnum, 36), raw: null, names: ['NPM_TOKEN'], npmrc: true })],
    ['code hosts & registries', 'pypi-token', () => ({ value: 'pypi-AgEIcHlwaS5vcmc' + r(CS.b64url, 70), names: ['PYPI_API_TOKEN', 'TWINE_PASSWORD'] })],
    ['code hosts & registries', 'docker-hub-pat', () => ({ value: 'dckr_pat_' + r(CS.b64url, 27), names: ['DOCKERHUB_TOKEN'] })],
    ['AI providers', 'openai-project-key', () => ({ value: 'sk-proj-' + r(CS.b64url, 74) + 'T3BlbkFJ' + r(CS.b64url, 74), names: ['OPENAI_API_KEY', 'openai_api_key'] })],
    ['AI providers', 'openai-legacy-key', () => ({ value: 'sk-' + r(CS.alnum, 20) + 'T3BlbkFJ' + r(CS.alnum, 20), names: ['OPENAI_API_KEY', 'openai.api_key'] })],
    ['AI providers', 'anthropic-key', () => ({ value: 'sk-ant-api03-' + r(CS.b64url, 93) + 'AA', names: ['ANTHROPIC_API_KEY', 'anthropicKey'] })],
    ['AI providers', 'huggingface-token', () => ({ value: 'hf_' + r(CS.alpha, 34), names: ['HF_TOKEN', 'HUGGING_FACE_HUB_TOKEN'] })],
    ['AI providers', 'groq-key', () => ({ value: 'gsk_' + r(CS.alnum, 52), names: ['GROQ_API_KEY'] })],
    ['AI providers', 'replicate-token', () => ({ value: 'r8_' + r(CS.alnum, 37), names: ['REPLICATE_API_TOKEN'] })],
    ['payments, messaging & SaaS', 'stripe-live-key', () => ({ value: 'sk_live_' + r(CS.alnum, int(24, 99)), names: ['STRIPE_SECRET_KEY', 'stripeKey'] })],
    ['payments, messaging & SaaS', 'stripe-restricted-key', () => ({ value: 'rk_live_' + r(CS.alnum, int(24, 99)), names: ['STRIPE_RESTRICTED_KEY'] })],
    ['payments, messaging & SaaS', 'stripe-webhook-secret', () => ({ value: 'whsec_' + r(CS.alnum, 32), names: ['STRIPE_WEBHOOK_SECRET'] })],
    ['payments, messaging & SaaS', 'slack-bot-token', () => ({ value: `xoxb-${r(DG, 12)}-${r(DG, 13)}-${r(CS.alnum, 24)}`, names: ['SLACK_BOT_TOKEN'] })],
    ['payments, messaging & SaaS', 'slack-webhook', () => {
      const value = `https://hooks.slack.com/services/T${r(CS.upnum, 10)}/B${r(CS.upnum, 10)}/${r(CS.alnum, 24)}`;
      return { value, names: ['SLACK_WEBHOOK_URL', 'slackWebhook'] };
    }],
    ['payments, messaging & SaaS', 'twilio-api-key', () => ({ value: 'SK' + r(CS.hex, 32), names: ['TWILIO_API_KEY'] })],
    ['payments, messaging & SaaS', 'sendgrid-key', () => ({ value: 'SG.' + r(CS.b64url, 22) + '.' + r(CS.b64url, 43), names: ['SENDGRID_API_KEY'] })],
    ['payments, messaging & SaaS', 'mailgun-key', () => ({ value: 'key-' + r(CS.hex, 32), names: ['MAILGUN_API_KEY'] })],
    ['payments, messaging & SaaS', 'discord-webhook', () => ({ value: `https://discord.com/api/webhooks/${r(DG, 18)}/${r(CS.b64url, 68)}`, names: ['DISCORD_WEBHOOK'] })],
    ['payments, messaging & SaaS', 'telegram-bot-token', () => ({ value: `${r(DG, 10)}:AA${r(CS.b64url, 33)}`, names: ['TELEGRAM_BOT_TOKEN', 'bot_token'] })],
    ['payments, messaging & SaaS', 'shopify-token', () => ({ value: 'shpat_' + r(CS.hex, 32), names: ['SHOPIFY_ACCESS_TOKEN'] })],
    ['payments, messaging & SaaS', 'datadog-api-key', () => ({ value: r(CS.hex, 32), names: ['DD_API_KEY', 'DATADOG_API_KEY'] })],
    ['payments, messaging & SaaS', 'mailchimp-key', () => ({ value: r(CS.hex, 32) + '-us' + int(1, 21), names: ['MAILCHIMP_API_KEY'] })],
    ['keys, JWT, URLs & headers', 'rsa-private-key', () => {
      const value = `-----BEGIN RSA PRIVATE KEY-----\n${pemBody(1190)}\n-----END RSA PRIVATE KEY-----`;
      return { value, raw: value, multiline: true };
    }],
    ['keys, JWT, URLs & headers', 'openssh-private-key', () => {
      const value = `-----BEGIN OPENSSH PRIVATE KEY-----\n${b64([...new TextEncoder().encode('openssh-key-v1\0'), ...randBytes(380)]).match(/.{1,70}/g).join('\n')}\n-----END OPENSSH PRIVATE KEY-----`;
      return { value, raw: value, multiline: true };
    }],
    ['keys, JWT, URLs & headers', 'ec-private-key', () => {
      const value = `-----BEGIN EC PRIVATE KEY-----\n${pemBody(121)}\n-----END EC PRIVATE KEY-----`;
      return { value, raw: value, multiline: true };
    }],
    ['keys, JWT, URLs & headers', 'jwt', () => {
      const head = b64url(JSON.stringify({ alg: pick(['HS256', 'RS256', 'ES256']), typ: 'JWT' }));
      const body = b64url(JSON.stringify({ sub: r(CS.alnum, 12), iat: int(1.6e9, 1.8e9), exp: int(1.8e9, 1.9e9), scope: 'read write' }));
      return { value: `${head}.${body}.${r(CS.b64url, 43)}`, names: ['ACCESS_TOKEN', 'id_token', 'jwt'] };
    }],
    ['keys, JWT, URLs & headers', 'postgres-url-password', () => {
      const value = r(CS.alnum, int(12, 24));
      return { value, raw: `DATABASE_URL=postgres://app_user:${value}@db.internal:5432/app` };
    }],
    ['keys, JWT, URLs & headers', 'mongodb-url-password', () => {
      const value = r(CS.alnum, int(12, 24));
      return { value, raw: `MONGO_URI="mongodb+srv://svc:${value}@cluster0.ab1cd.mongodb.net/prod?retryWrites=true"` };
    }],
    ['keys, JWT, URLs & headers', 'https-url-password', () => {
      const value = r(CS.alnum, int(12, 20));
      return { value, raw: `git clone https://deploy:${value}@git.example.org/acme/app.git` };
    }],
    ['keys, JWT, URLs & headers', 'bearer-header', () => {
      const value = r(CS.b64url, int(32, 64));
      return { value, raw: pick([`curl -H "Authorization: Bearer ${value}" https://api.acme.io/v1/items`, `Authorization: Bearer ${value}`, `headers = {"Authorization": "Bearer ${value}"}`]) };
    }],
    ['keys, JWT, URLs & headers', 'basic-header', () => {
      const value = btoa(`svc-${r(CS.lownum, 6)}:${r(CS.alnum, 16)}`);
      return { value, raw: `Authorization: Basic ${value}` };
    }],
    ['generic assignments', 'password', () => ({ value: r(CS.pass, int(10, 28)), names: ['DB_PASSWORD', 'password', 'smtpPassword', 'REDIS_PASSWORD', 'admin_pass' + 'word'] })],
    ['generic assignments', 'secret', () => ({ value: r(CS.alnum, int(24, 48)), names: ['CLIENT_SECRET', 'jwt_secret', 'SESSION_SECRET', 'appSecret'] })],
    ['generic assignments', 'token', () => ({ value: r(CS.alnum, int(24, 48)), names: ['API_TOKEN', 'auth_token', 'refreshToken', 'SERVICE_TOKEN'] })],
    ['generic assignments', 'api-key', () => ({ value: r(CS.alnum, int(24, 40)), names: ['API_KEY', 'apiKey', 'x_api_key', 'LICENSE_KEY'] })],
  ];

  // ---- how an assignment is written in each file type ----
  const ASSIGN = {
    env: (n, v) => pick([`${n.toUpperCase()}=${v}`, `${n.toUpperCase()}="${v}"`]),
    yaml: (n, v) => pick([`  ${n}: ${v}`, `    ${n}: "${v}"`, `      - name: ${n}\n        value: "${v}"`]),
    json: (n, v) => `  "${n}": "${v}",`,
    toml: (n, v) => `${n} = "${v}"`,
    sh: (n, v) => pick([`export ${n.toUpperCase()}="${v}"`, `${n.toUpperCase()}='${v}' ./deploy.sh`]),
    ts: (n, v) => pick([`const ${n.replace(/\W/g, '_')} = "${v}";`, `  ${n.replace(/\W/g, '_')}: '${v}',`]),
    py: (n, v) => pick([`${n.replace(/\W/g, '_')} = "${v}"`, `settings["${n}"] = '${v}'`]),
    go: (n, v) => `\t${n.replace(/\W/g, '_')} := "${v}"`,
    log: (n, v) => `2024-06-0${int(1, 9)}T10:${int(10, 59)}:00Z DEBUG config loaded ${n}=${v}`,
    md: (n, v) => `Pour tester, définissez \`${n}=${v}\` dans votre shell.`,
  };
  const FILLER = {
    env: ['NODE_ENV=production', 'PORT=3000', 'LOG_LEVEL=info', '# Database', 'FEATURE_FLAGS=beta,search', 'TZ=Europe/Paris'],
    yaml: ['apiVersion: apps/v1', 'kind: Deployment', 'metadata:', '  name: web', 'spec:', '  replicas: 3', '    image: ghcr.io/acme/web:1.4.2', '    ports:', '      - containerPort: 8080', 'on: [push, pull_request]', 'jobs:', '  build:', '    runs-on: ubuntu-latest', '      - uses: actions/checkout@v4'],
    json: ['{', '  "name": "acme-web",', '  "version": "2.3.1",', '  "private": true,', '  "scripts": { "build": "vite build", "test": "vitest" },', '  "engines": { "node": ">=20" },', '}'],
    toml: ['[package]', 'name = "acme"', 'version = "0.4.0"', 'edition = "2021"', '[dependencies]', 'serde = { version = "1", features = ["derive"] }', '[tool.poetry]', 'python = "^3.11"'],
    sh: ['#!/usr/bin/env bash', 'set -euo pipefail', 'echo "deploying $VERSION to $ENV"', 'docker build -t acme/web:"$VERSION" .', 'kubectl rollout status deploy/web', 'trap cleanup EXIT'],
    ts: ['import { createServer } from "node:http";', 'export async function handler(req: Request): Promise<Response> {', '  const body = await req.json();', '  return new Response(JSON.stringify(body), { status: 200 });', '}', 'type Config = { retries: number; timeoutMs: number };', '// keep the token out of logs', 'const tokenizer = getEncoding("cl100k_base");'],
    py: ['import os', 'import logging', 'def main() -> None:', '    parser = argparse.ArgumentParser()', '    args = parser.parse_args()', '    logging.info("started %s", args)', 'max_tokens = 4096', 'if __name__ == "__main__":'],
    go: ['package main', 'import (', '\t"fmt"', '\t"net/http"', ')', 'func main() {', '\thttp.HandleFunc("/", handler)', '\tfmt.Println("listening")', '}'],
    log: ['2024-06-01T10:00:00Z INFO server started port=8080', '2024-06-01T10:00:01Z INFO GET /healthz 200 1ms', '2024-06-01T10:00:02Z WARN slow query durationMs=1532 table=orders', '2024-06-01T10:00:03Z INFO user=ünïcödé login ok'],
    md: ['# Déploiement', 'Configurez la clé dans `.env` — ne la commitez jamais.', '設定ファイルにトークンを書かないでください。', 'Пароль хранится в менеджере секретов.', '> Remarque : la rotation des clés est automatique. 🔑', '## Étapes', '1. Créez un jeton personnel.'],
  };
  const EXTS = Object.keys(FILLER);

  // ---- genuine non-secrets ----
  const AWS_DOC_ID = 'AKIA' + 'IOSFODNN7EXAMPLE';
  const AWS_DOC_SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCY' + 'EXAMPLEKEY';
  const JWT_IO = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.' + 'eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.' + 'SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';
  const NEGATIVES = [
    () => `OPENAI_API_KEY=sk-${'x'.repeat(48)}`,
    () => 'API_KEY=<YOUR_API_KEY>',
    () => 'GITHUB_TOKEN=${GITHUB_TOKEN}',
    () => '  token: ${{ secrets.DEPLOY_TOKEN }}',
    () => 'const key = process.env.STRIPE_SECRET_KEY;',
    () => 'password = os.environ["DB_PASSWORD"]',
    () => 'secret := os.Getenv("CLIENT_SECRET")',
    () => '"apiKey": "YOUR_API_KEY_HERE",',
    () => 'password: changeme',
    () => `GH_TOKEN=ghp_${'X'.repeat(36)}`,
    () => `aws_access_key_id = ${AWS_DOC_ID}`,
    () => `aws_secret_access_key = ${AWS_DOC_SECRET}`,
    () => `# the jwt.io sample: ${JWT_IO}`,
    () => 'Authorization: Bearer <token>',
    () => `commit ${r(CS.hex, 40)}`,
    () => `  "sha": "${r(CS.hex, 40)}",`,
    () => `rev = "${r(CS.hex, 40)}"`,
    () => `github.com/acme/lib v1.2.${int(0, 9)} h1:${b64(randBytes(32))}`,
    () => `sha256sum: ${r(CS.hex, 64)}`,
    () => `checksum = "${r(CS.hex, 64)}"`,
    () => `ETag: "${r(CS.hex, 32)}"`,
    () => `password_hash = "${r(CS.hex, 64)}"`,
    () => `      "integrity": "sha512-${b64(randBytes(64))}",`,
    () => `  integrity sha1-${b64(randBytes(20))}`,
    () => `  "id": "${uuid()}",`,
    () => `request_id=${uuid()} trace_id=${r(CS.hex, 32)}`,
    () => `session_id: ${uuid()}`,
    () => `<img src="data:image/png;base64,${b64(randBytes(int(300, 1500)))}">`,
    () => `{"version":3,"sources":["app.ts"],"mappings":"${Array.from({ length: 60 }, () => r('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/', int(4, 8))).join(',')}"}`,
    () => 'function n(t){return t.token=e.token,t.apiKey=e.apiKey||"",r(t)}var a=o.getToken(),s=t.password||"";',
    () => 'max_tokens = 4096',
    () => 'tokenizer = "cl100k_base"',
    () => 'secretName: db-credentials',
    () => 'password_reset_url = "https://acme.io/reset"',
    () => `color: #${r(CS.hex, 6)}; background: #${r(CS.hex, 6)};`,
    () => 'redis://localhost:6379/0',
    () => 'postgres://postgres:postgres@localhost:5432/test',
    // Names in code, not values (in installed packages most generic findings were these).
    () => '  readonly accessToken: AccessTokenResponse;',
    () => 'async function refresh(refreshToken: RefreshTokenInput, signal?: AbortSignal): Promise<void> {',
    () => 'const apiKey = options.keyProvider?.current ?? fallbackApiKey;',
    () => '    this.sessionSecret = sessionSecretFromVault;',
    () => 'export const fields = ["username", "password", "hostname", "port"];',
    () => '{"version":3,"names":["token","tokenizerState","password","PasswordPrompt","masked"],"mappings":"AAAA"}',
  ];

  const files = [];
  const enc = new TextEncoder();
  let kindCursor = 0;
  const nextKind = () => KINDS[kindCursor++ % KINDS.length];
  /** A secret written the way `ext` files hold it: the text and the value's offset in it. */
  function plant(ext) {
    const [family, kind, make] = nextKind();
    const g = make();
    let text;
    if (g.raw) text = ext === 'json' && !g.raw.startsWith('{') && !g.multiline ? `  "note": ${JSON.stringify(g.raw)},` : g.raw;
    else if (g.npmrc && ext === 'env') text = `//registry.npmjs.org/:_authToken=${g.value}`;
    else text = ASSIGN[ext](pick(g.names), g.value);
    const at = text.indexOf(g.value);
    if (at < 0) throw new Error(`corpus: ${kind} value not in its snippet`);
    return { text, at, len: g.value.length, kind, family };
  }
  function addFile(path, parts, crlf) {
    const nl = crlf ? '\r\n' : '\n';
    let text = '';
    const planted = [];
    for (const p of parts) {
      if (typeof p === 'string') text += p.replace(/\n/g, nl) + nl;
      else {
        // Offsets are taken after the line-end conversion of the text before the value.
        const before = p.text.slice(0, p.at).replace(/\n/g, nl);
        const value = p.text.slice(p.at, p.at + p.len).replace(/\n/g, nl);
        const after = p.text.slice(p.at + p.len).replace(/\n/g, nl);
        const start = text.length + before.length;
        planted.push({ kind: p.kind, family: p.family, start, end: start + value.length });
        text += before + value + after + nl;
      }
    }
    for (const p of planted) if (p.end > text.length) throw new Error('corpus: bad offsets');
    files.push({ path, text, planted });
  }

  // Small and medium files of every type: filler, 1-4 secrets, 2-6 hard negatives.
  for (let i = 0; i < smallFiles; i++) {
    const ext = EXTS[i % EXTS.length];
    const parts = [];
    const lines = int(20, 200);
    for (let j = 0; j < lines; j++) parts.push(pick(FILLER[ext]));
    const nSecrets = i % 7 === 3 ? 0 : int(1, 4);
    for (let j = 0; j < nSecrets; j++) {
      const at = int(0, parts.length);
      const s = plant(ext);
      // Non-ASCII prose right before some secrets.
      if (j === 0 && i % 3 === 0) parts.splice(at, 0, pick(FILLER.md), s);
      else parts.splice(at, 0, s);
    }
    for (let j = int(2, 6); j > 0; j--) parts.splice(int(0, parts.length), 0, pick(NEGATIVES)());
    addFile(`src/f${i}.${ext === 'env' ? 'env' : ext}`, parts, i % 5 === 2);
  }
  // Very long lines: minified bundles with a secret inside a string literal.
  for (let i = 0; i < 4; i++) {
    let line = '';
    while (line.length < 400_000) line += `function f${line.length}(a,b){return a.token=b.token,a.value+b.value}var c${line.length}="${Math.floor(rand() * 1e9).toString(36)}";`;
    const s = plant('ts');
    addFile(`dist/bundle${i}.min.js`, [line.slice(0, 200_000) + ';', s, line.slice(200_000)], false);
  }
  // Multi-megabyte logs with rare secrets and non-ASCII text on every line.
  for (let b = 0; b < bigFiles; b++) {
    const parts = [];
    let size = 0;
    let n = 0;
    while (size < bigFileBytes) {
      const line = `2024-05-0${1 + (n % 9)}T12:00:${String(n % 60).padStart(2, '0')}Z INFO request id=${Math.floor(rand() * 1e12).toString(16)} path=/api/v1/items/${n} status=200 durationMs=${n % 997} user=ünïcödé`;
      parts.push(line);
      size += line.length + 1;
      if (++n % 20000 === 0) parts.push(plant('log'));
      if (n % 7000 === 0) parts.push(pick(NEGATIVES)());
    }
    addFile(`logs/big${b}.log`, parts, b === 1);
  }
  const bytes = files.reduce((s, f) => s + enc.encode(f.text).length, 0);
  const kinds = KINDS.map(([family, kind]) => ({ family, kind }));
  return { files, bytes, kinds };
}
