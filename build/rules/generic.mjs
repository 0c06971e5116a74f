// Generic `name = value` assignments. These come last: a specific rule that covers the same span
// wins. Medium confidence: the value is judged by entropy and by the host's stop-word and
// placeholder filters, so a policy of `refuse` can stop a request instead of guessing.
import { C, F, P, assign } from './dsl.mjs';

const generic = (id, description, keywords, minLen, entropy, examples) => ({
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

export default [
  generic('generic-password', 'Password assigned in configuration or code', ['password', 'passwd', 'pwd', 'passphrase'], 8, 2.8, {
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
  generic('generic-secret', 'Secret assigned in configuration or code', ['secret', 'credential', 'private_key', 'privatekey', 'signing_key', 'encryption_key', 'master_key'], 12, 3.3, {
    pos: [P('CLIENT_SECRET=', F(C.alnum, 32)), P('jwt_secret: "', F(C.b64, 44), '"'), P('export APP_SECRET_KEY=', F(C.alnum, 40))],
    neg: ['secret_name = "prod-db-credentials"', 'secretKeyRef: { name: app-secrets }', 'CLIENT_SECRET=${{ secrets.CLIENT_SECRET }}', 'secret = "xxxxxxxxxxxxxxxxxxxx"'],
  }),
  generic('generic-token', 'Token assigned in configuration or code', ['token'], 12, 3.3, {
    pos: [P('ACCESS_TOKEN=', F(C.alnum, 40)), P('refresh_token: ', F(C.b64url, 48)), P('"authToken": "', F(C.alnum, 32), '"')],
    neg: ['max_tokens = 4096', 'tokenizer = "cl100k_base"', 'token = self.get_token()', 'csrf_token = request.cookies.get("csrftoken")', 'token: "{{ .Values.token }}"'],
  }),
  generic('generic-api-key', 'API key assigned in configuration or code', ['api_key', 'apikey', 'api-key', 'access_key', 'accesskey', 'auth_key', 'app_key', 'client_key', 'license_key', 'subscription_key'], 12, 3.3, {
    pos: [P('MAPS_API_KEY=', F(C.alnum, 32)), P("apiKey: '", F(C.alnum, 24), "',"), P('[service]\napi_key = "', F(C.b64url, 40), '"')],
    neg: ['api_key = os.getenv("API_KEY")', 'apiKey: process.env.API_KEY,', 'api_key = "your-api-key-here"', 'API_KEY=<YOUR_API_KEY>', 'apiKeyHeader = "X-Api-Key"'],
  }),
];
