// Generic `name = value` assignments. These come last: a specific rule that covers the same span
// wins. Medium confidence: the value is judged by entropy and by the host's stop-word and
// placeholder filters, so a policy of `refuse` can stop a request instead of guessing.
import { C, F, P, assign } from './dsl.mjs';

/**
 * What each kind of generic secret is keyed on and how it is judged, shared by its `name = value`
 * rule and its name/value environment-entry rule: keywords, shortest value, least entropy.
 */
const KIND = {
  password: { keywords: ['password', 'passwd', 'pwd', 'passphrase'], minLen: 8, entropy: 2.8 },
  secret: { keywords: ['secret', 'credential', 'private_key', 'privatekey', 'signing_key', 'encryption_key', 'master_key'], minLen: 12, entropy: 3.3 },
  token: { keywords: ['token'], minLen: 12, entropy: 3.3 },
  apiKey: { keywords: ['api_key', 'apikey', 'api-key', 'access_key', 'accesskey', 'auth_key', 'app_key', 'client_key', 'license_key', 'subscription_key'], minLen: 12, entropy: 3.3 },
};

const generic = (id, description, { keywords, minLen, entropy }, examples) => ({
  id,
  description,
  confidence: 'medium',
  keywords,
  ci: true,
  before: null,
  steps: assign(['val', minLen, 256]),
  secret: 'last',
  after: 'valstop',
  entropy,
  examples,
});

/**
 * The same secret as an environment entry whose name and value sit on two lines, as Kubernetes
 * manifests, Compose files and CI configs write them: `- name: API_KEY` then `value: "…"` on the
 * next line. The keyword is in the name; a line break, then `value` and its separator follow. The
 * host's name filter reads the entry's name, not `value`.
 */
const envEntry = (id, description, kind, examples) => ({
  ...generic(id, description, kind, examples),
  steps: [['ident', 0, 24], ['qsp', 0, 4], ['nl', 1, 2], ['sp', 1, 24], { lit: 'value', ci: true }, ['qsp', 0, 4], ['assign', 1, 2], ['qsp', 0, 4], ['val', kind.minLen, 256]],
});

export default [
  generic('generic-password', 'Password assigned in configuration or code', KIND.password, {
    pos: [
      P('DB_PASSWORD=', F(C.alnum, 16)),
      P('  password: "', F(C.alnum, 12) + '!', '"'),
      P('{"password": "', F(C.alnum, 14), '"}'),
      P('smtp_password = "', F(C.alnum, 20), '"   # toml'),
      P('const dbPassword = \'', F(C.alnum, 16), '\';'),
    ],
    neg: [
      'password: ${DB_PASSWORD}',
      'password = os.environ["DB_PASSWORD"]',
      'const password = process.env.DB_PASSWORD;',
      'password: changeme',
      'password_hash = "' + F(C.hex, 64) + '"',
      'password = getpass()',
      'password: "<YOUR_PASSWORD>"',
      "passwordInput.value = ''",
    ],
  }),
  generic('generic-secret', 'Secret assigned in configuration or code', KIND.secret, {
    pos: [P('CLIENT_SECRET=', F(C.alnum, 32)), P('jwt_secret: "', F(C.b64, 44), '"'), P('export APP_SECRET_KEY=', F(C.alnum, 40))],
    neg: ['secret_name = "prod-db-credentials"', 'secretKeyRef: { name: app-secrets }', 'CLIENT_SECRET=${{ secrets.CLIENT_SECRET }}', 'secret = "xxxxxxxxxxxxxxxxxxxx"'],
  }),
  generic('generic-token', 'Token assigned in configuration or code', KIND.token, {
    pos: [P('ACCESS_TOKEN=', F(C.alnum, 40)), P('refresh_token: ', F(C.b64url, 48)), P('"authToken": "', F(C.alnum, 32), '"')],
    neg: ['max_tokens = 4096', 'tokenizer = "cl100k_base"', 'token = self.get_token()', 'csrf_token = request.cookies.get("csrftoken")', 'token: "{{ .Values.token }}"'],
  }),
  generic('generic-api-key', 'API key assigned in configuration or code', KIND.apiKey, {
    pos: [P('MAPS_API_KEY=', F(C.alnum, 32)), P("apiKey: '", F(C.alnum, 24), "',"), P('[service]\napi_key = "', F(C.b64url, 40), '"')],
    neg: ['api_key = os.getenv("API_KEY")', 'apiKey: process.env.API_KEY,', 'api_key = "your-api-key-here"', 'API_KEY=<YOUR_API_KEY>', 'apiKeyHeader = "X-Api-Key"'],
  }),
  envEntry('generic-password-env-entry', 'Password as a name/value environment entry (Kubernetes, Compose, CI)', KIND.password, {
    pos: [P('      - name: DB_PASSWORD\n        value: "', F(C.alnum, 16), '"'), P('- name: "SMTP_PASSWORD"\r\n  value: ', F(C.alnum, 14))],
    neg: [
      '      - name: DB_PASSWORD\n        valueFrom:\n          secretKeyRef: { name: db, key: password }',
      '      - name: DB_PASSWORD\n        value: "${DB_PASSWORD}"',
      '      - name: PASSWORD_MIN_LENGTH\n        value: "12345678901"',
      '      - name: DB_PASSWORD value: "' + F(C.alnum, 16) + '"',
    ],
  }),
  envEntry('generic-secret-env-entry', 'Secret as a name/value environment entry (Kubernetes, Compose, CI)', KIND.secret, {
    pos: [P('        - name: CLIENT_SECRET\n          value: "', F(C.alnum, 36), '"'), P('  - name: JWT_SIGNING_KEY\n    value: ', F(C.b64, 44))],
    neg: ['        - name: CLIENT_SECRET\n          value: "{{ .Values.clientSecret }}"', '        - name: SECRET_NAME\n          value: "prod-db-credentials"', '        - name: CLIENT_SECRET\n          value: "xxxxxxxxxxxxxxxxxxxx"'],
  }),
  envEntry('generic-token-env-entry', 'Token as a name/value environment entry (Kubernetes, Compose, CI)', KIND.token, {
    pos: [P('      - name: API_TOKEN\n        value: "', F(C.alnum, 44), '"')],
    neg: ['      - name: MAX_TOKENS\n        value: "4096"', '      - name: TOKEN_TTL_SECONDS\n        value: "86400000000000"', '      - name: API_TOKEN\n        value: "$(cat /run/secrets/token)"'],
  }),
  envEntry('generic-api-key-env-entry', 'API key as a name/value environment entry (Kubernetes, Compose, CI)', KIND.apiKey, {
    pos: [P('      - name: DATADOG_API_KEY\n        value: "', F(C.hex, 32), '"'), P('      - name: API_KEY\n        value: ', F(C.alnum, 26))],
    neg: ['      - name: API_KEY\n        valueFrom:\n          secretKeyRef:\n            name: api', '      - name: API_KEY_HEADER\n        value: "X-Api-Key-Header-Name"', '      - name: API_KEY\n        value: "your-api-key-here"'],
  }),
];
