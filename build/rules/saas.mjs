// Payments, messaging and SaaS tokens.
import { C, F, P, prefixed, contextual, uuid } from './dsl.mjs';

const stripe = (id, description, prefix) =>
  prefixed(id, description, prefix, [['alnum', 24, 247]], {
    pos: [P('STRIPE_KEY=', prefix + F(C.alnum, 24)), P("Stripe('", prefix + F(C.alnum, 99), "')")],
    neg: [prefix + F(C.alnum, 10), prefix + 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'],
  }, { entropy: 3.0 });

const shopify = (id, description, prefix) =>
  prefixed(id, description, prefix, [['hexi', 32]], {
    pos: [P('SHOPIFY_TOKEN=', prefix + F(C.hex, 32))],
    neg: [prefix + F(C.hex, 16)],
  });

const slackNum = (min, max) => ['digit', min, max];

export default [
  stripe('stripe-live-secret-key', 'Stripe live secret key (sk_live_)', 'sk_live_'),
  stripe('stripe-test-secret-key', 'Stripe test secret key (sk_test_)', 'sk_test_'),
  stripe('stripe-live-restricted-key', 'Stripe live restricted key (rk_live_)', 'rk_live_'),
  stripe('stripe-test-restricted-key', 'Stripe test restricted key (rk_test_)', 'rk_test_'),
  prefixed('stripe-webhook-secret', 'Stripe webhook signing secret (whsec_)', 'whsec_', [['alnum', 32, 64]], {
    pos: [P('STRIPE_WEBHOOK_SECRET=', 'whsec_' + F(C.alnum, 32))],
    neg: ['whsec_' + F(C.alnum, 10)],
  }),
  prefixed('square-access-token', 'Square access token (EAAA…)', 'EAAA', [['b64url', 60]], {
    pos: [P('SQUARE_ACCESS_TOKEN=', 'EAAA' + F(C.b64url, 60))],
    neg: ['EAAA' + F(C.b64url, 20)],
  }),
  prefixed('square-legacy-access-token', 'Square legacy access token (sq0atp-)', 'sq0atp-', [['b64url', 22]], {
    pos: [P('token: ', 'sq0atp-' + F(C.b64url, 22))],
    neg: ['sq0atp-' + F(C.b64url, 10)],
  }),
  prefixed('square-oauth-secret', 'Square OAuth application secret (sq0csp-)', 'sq0csp-', [['b64url', 43]], {
    pos: [P('secret: ', 'sq0csp-' + F(C.b64url, 43))],
    neg: ['sq0csp-' + F(C.b64url, 10)],
  }),
  prefixed('braintree-access-token', 'PayPal Braintree access token', 'access_token$production$', [['lownum', 16], '$', ['hex', 32]], {
    pos: [P('BRAINTREE_TOKEN=', 'access_token$production$' + F(C.lownum, 16) + '$' + F(C.hex, 32))],
    neg: ['access_token$production$' + F(C.lownum, 16)],
  }, { before: null }),
  prefixed('flutterwave-secret-key', 'Flutterwave secret key', ['FLWSECK_TEST-', 'FLWSECK-'], [['hex', 32], '-X'], {
    pos: [P('FLW_SECRET_KEY=', 'FLWSECK_TEST-' + F(C.hex, 32) + '-X')],
    neg: ['FLWSECK_TEST-' + F(C.hex, 10)],
  }),
  prefixed('plaid-access-token', 'Plaid access token', ['access-production-', 'access-development-', 'access-sandbox-'], [['uuid', 36]], {
    pos: [P('plaid_token: ', 'access-sandbox-' + F(C.hex, 8) + '-' + F(C.hex, 4) + '-' + F(C.hex, 4) + '-' + F(C.hex, 4) + '-' + F(C.hex, 12))],
    neg: ['access-sandbox-enabled'],
  }),
  prefixed('duffel-api-token', 'Duffel API token', ['duffel_test_', 'duffel_live_'], [['b64urle', 43]], {
    pos: [P('DUFFEL_TOKEN=', 'duffel_test_' + F(C.b64url, 43))],
    neg: ['duffel_test_' + F(C.b64url, 10)],
  }),
  prefixed('easypost-api-key', 'EasyPost API key', ['EZAK', 'EZTK'], [['alnum', 54]], {
    pos: [P('EASYPOST_API_KEY=', 'EZAK' + F(C.alnum, 54))],
    neg: ['EZAK' + F(C.alnum, 20)],
  }),
  prefixed('shippo-api-token', 'Shippo API token', ['shippo_live_', 'shippo_test_'], [['hex', 40]], {
    pos: [P('SHIPPO_TOKEN=', 'shippo_live_' + F(C.hex, 40))],
    neg: ['shippo_live_' + F(C.hex, 10)],
  }),
  shopify('shopify-access-token', 'Shopify Admin API access token (shpat_)', 'shpat_'),
  shopify('shopify-shared-secret', 'Shopify app shared secret (shpss_)', 'shpss_'),
  shopify('shopify-custom-app-token', 'Shopify custom app access token (shpca_)', 'shpca_'),
  shopify('shopify-private-app-token', 'Shopify private app access token (shppa_)', 'shppa_'),
  prefixed('slack-bot-token', 'Slack bot token (xoxb-)', 'xoxb-', [slackNum(10, 13), '-', slackNum(10, 13), '-', ['alnum', 24, 34]], {
    pos: [P('SLACK_BOT_TOKEN=', 'xoxb-' + F(C.digit, 12) + '-' + F(C.digit, 13) + '-' + F(C.alnum, 24))],
    neg: ['xoxb-' + F(C.digit, 12), 'xoxb-your-token-here'],
  }),
  prefixed('slack-user-token', 'Slack user token (xoxp-)', 'xoxp-', [slackNum(10, 13), '-', slackNum(10, 13), '-', slackNum(10, 13), '-', ['alnum', 28, 34]], {
    pos: [P('SLACK_USER_TOKEN=', 'xoxp-' + F(C.digit, 12) + '-' + F(C.digit, 12) + '-' + F(C.digit, 13) + '-' + F(C.hex, 32))],
    neg: ['xoxp-' + F(C.digit, 12) + '-' + F(C.hex, 32)],
  }),
  prefixed('slack-legacy-token', 'Slack legacy token (xoxa-, xoxr-, xoxs-, xoxo-)', ['xoxa-', 'xoxr-', 'xoxs-', 'xoxo-'], [['slk', 20, 200]], {
    pos: [P('token=', 'xoxs-' + F(C.digit, 10) + '-' + F(C.digit, 12) + '-' + F(C.hex, 64))],
    neg: ['xoxs-' + F(C.digit, 5)],
  }, { entropy: 3.0 }),
  prefixed('slack-app-token', 'Slack app-level token (xapp-)', 'xapp-', [['digit', 1, 2], '-', ['upnum', 9, 12], '-', ['digit', 10, 14], '-', ['hexi', 64]], {
    pos: [P('SLACK_APP_TOKEN=', 'xapp-1-' + 'A' + F(C.upnum, 9) + '-' + F(C.digit, 13) + '-' + F(C.hex, 64))],
    neg: ['xapp-1-' + F(C.upnum, 10)],
  }),
  prefixed('slack-config-access-token', 'Slack configuration access token (xoxe.xox?-1-)', ['xoxe.xoxp-1-', 'xoxe.xoxb-1-'], [['alnum', 160, 170]], {
    pos: [P('SLACK_CONFIG_TOKEN=', 'xoxe.xoxp-1-' + F(C.alnum, 164))],
    neg: ['xoxe.xoxp-1-' + F(C.alnum, 40)],
  }),
  prefixed('slack-config-refresh-token', 'Slack configuration refresh token (xoxe-1-)', 'xoxe-1-', [['alnum', 140, 150]], {
    pos: [P('SLACK_REFRESH=', 'xoxe-1-' + F(C.alnum, 146))],
    neg: ['xoxe-1-' + F(C.alnum, 40)],
  }),
  prefixed('slack-webhook-url', 'Slack incoming webhook URL', 'hooks.slack.com/services/', [['upnum', 8, 12], '/', ['upnum', 8, 12], '/', ['alnum', 24]], {
    pos: [P('SLACK_WEBHOOK=https://', 'hooks.slack.com/services/T' + F(C.upnum, 8) + '/B' + F(C.upnum, 10) + '/' + F(C.alnum, 24))],
    neg: ['https://hooks.slack.com/services/T000/B000/XXXX'],
  }, { before: null }),
  prefixed('slack-workflow-webhook-url', 'Slack workflow webhook URL', ['hooks.slack.com/workflows/', 'hooks.slack.com/triggers/'], [['upnum', 8, 12], '/', ['digit', 8, 20], '/', ['digit', 8, 20], '/', ['alnum', 24, 34]], {
    pos: [P('url: https://', 'hooks.slack.com/triggers/T' + F(C.upnum, 8) + '/' + F(C.digit, 13) + '/' + F(C.digit, 12) + '/' + F(C.alnum, 32))],
    neg: ['https://hooks.slack.com/triggers/T0/1/2'],
  }, { before: null }),
  prefixed('discord-webhook-url', 'Discord webhook URL', ['discord.com/api/webhooks/', 'discordapp.com/api/webhooks/'], [['digit', 17, 20], '/', ['b64url', 60, 68]], {
    pos: [P('DISCORD_WEBHOOK=https://', 'discord.com/api/webhooks/' + F(C.digit, 18) + '/' + F(C.b64url, 68))],
    neg: ['https://discord.com/api/webhooks/123/abc'],
  }, { before: null }),
  contextual('discord-bot-token', 'Discord bot token assigned to a Discord-named variable', ['discord'], ['dotted', 59, 80], {
    pos: [P('DISCORD_BOT_TOKEN=', 'M' + F(C.alnum, 25) + '.' + F(C.b64url, 6) + '.' + F(C.b64url, 38))],
    neg: ['DISCORD_BOT_TOKEN=' + F(C.alnum, 20)],
  }, { entropy: 4.0 }),
  // The same token given to the library's call rather than a named variable: discord.js's
  // `client.login('…')` and discord.py's `bot.run('…')`. Its first part is the bot's id in base64
  // (digits, so M, N or O first), then a timestamp of 6 or 7 characters and the HMAC. Keyed on the
  // calls' tails, whose first bytes other keywords have.
  {
    id: 'discord-bot-token-call',
    description: "Discord bot token given to client.login('…') (discord.js) or bot.run('…') (discord.py)",
    confidence: 'high',
    keywords: ['ogin(', 'run('],
    before: null,
    steps: [['ws', 0, 4], ['quote', 1, 1], ['mno', 1, 1], ['alnum', 22, 27], '.', ['b64url', 6, 7], '.', ['b64url', 27, 40]],
    secret: [2, 7],
    after: 'b64url',
    entropy: 4.0,
    examples: {
      pos: [
        P("client.login('", 'MT' + F(C.alnum, 24) + '.' + F(C.b64url, 6) + '.' + F(C.b64url, 38), "');"),
        P('bot.run("', 'OD' + F(C.alnum, 22) + '.' + F(C.b64url, 6) + '.' + F(C.b64url, 27), '")'),
      ],
      neg: ['client.login(process.env.DISCORD_TOKEN);', "bot.run('YOUR_BOT_TOKEN_HERE')", "client.login('" + 'xT' + F(C.alnum, 24) + '.' + F(C.b64url, 6) + '.' + F(C.b64url, 38) + "');"],
    },
  },
  // OpenWeatherMap's API key, 32 lowercase hex characters, as its API takes it: the `appid` query
  // parameter (every weather tutorial's URL), or a request's params. Medium: some other services
  // name a public 32-hex application id `appid` too.
  {
    id: 'openweathermap-api-key',
    description: 'OpenWeatherMap API key (appid=<32 hex>)',
    confidence: 'medium',
    keywords: ['appid'],
    ci: true,
    before: 'alnum',
    steps: [['qsp', 0, 2], ['assign', 1, 1], ['sp', 0, 4], ['quote', 0, 1], ['hex', 32, 32]],
    secret: 'last',
    after: 'alnum',
    entropy: 3.0,
    examples: {
      pos: [
        P("fetch(`https://api.openweathermap.org/data/2.5/weather?q=${city}&appid=", F(C.hex, 32), '&units=metric`)'),
        P("params: { q: city, appid: '", F(C.hex, 32), "' }"),
      ],
      neg: ['&appid=${API_KEY}', 'appid=' + F(C.hex, 16), 'appId: "' + uuid() + '"', 'appid=' + F(C.hex, 40)],
    },
  },
  {
    id: 'telegram-bot-token',
    description: 'Telegram bot token (<bot id>:AA…)',
    confidence: 'high',
    keywords: [':AA'],
    back: ['digit', 8, 10],
    before: 'digit',
    steps: [['b64url', 33]],
    examples: {
      pos: [P('TELEGRAM_BOT_TOKEN=', F('123456789', 1) + F(C.digit, 9) + ':AA' + F(C.b64url, 33)), P('https://api.telegram.org/bot', F(C.digit, 10) + ':AA' + F(C.b64url, 33), '/getMe')],
      neg: ['12:AA' + F(C.b64url, 33), F(C.digit, 10) + ':AA' + F(C.b64url, 10)],
    },
  },
  prefixed('teams-webhook-url', 'Microsoft Teams incoming webhook URL', ['.webhook.office.com/webhookb2/'], [['uuid', 36], '@', ['uuid', 36], '/IncomingWebhook/', ['hexi', 32], '/', ['uuid', 36]], {
    pos: [P('TEAMS_WEBHOOK=https://acme', '.webhook.office.com/webhookb2/' + F(C.hex, 8) + '-' + F(C.hex, 4) + '-' + F(C.hex, 4) + '-' + F(C.hex, 4) + '-' + F(C.hex, 12) + '@' + F(C.hex, 8) + '-' + F(C.hex, 4) + '-' + F(C.hex, 4) + '-' + F(C.hex, 4) + '-' + F(C.hex, 12) + '/IncomingWebhook/' + F(C.hex, 32) + '/' + F(C.hex, 8) + '-' + F(C.hex, 4) + '-' + F(C.hex, 4) + '-' + F(C.hex, 4) + '-' + F(C.hex, 12))],
    neg: ['https://acme.webhook.office.com/webhookb2/abc'],
  }, { before: null }),
  prefixed('twilio-api-key', 'Twilio API key SID (SK + 32 hex)', 'SK', [['hex', 32]], {
    pos: [P('TWILIO_API_KEY=', 'SK' + F(C.hex, 32))],
    neg: ['SK' + F(C.hex, 20), 'TASK' + F(C.hex, 32)],
  }, { entropy: 3.0 }),
  contextual('twilio-auth-token', 'Twilio auth token assigned to a Twilio-named variable', ['twilio'], ['hex', 32], {
    pos: [P('TWILIO_AUTH_TOKEN=', F(C.hex, 32))],
    neg: ['TWILIO_ACCOUNT_SID=AC' + F(C.hex, 32)],
  }, { entropy: 3.0 }),
  prefixed('sendgrid-api-key', 'SendGrid API key (SG.…)', 'SG.', [['b64url', 22], '.', ['b64url', 43]], {
    pos: [P('SENDGRID_API_KEY=', 'SG.' + F(C.b64url, 22) + '.' + F(C.b64url, 43))],
    neg: ['SG.' + F(C.b64url, 22)],
  }),
  prefixed('mailgun-private-api-key', 'Mailgun private API key (key-…)', 'key-', [['hex', 32]], {
    pos: [P('MAILGUN_API_KEY=', 'key-' + F(C.hex, 32))],
    neg: ['key-' + F(C.hex, 16), 'primary-key-' + F(C.alpha, 32)],
  }, { entropy: 3.0 }),
  contextual('mailgun-signing-key', 'Mailgun webhook signing key assigned to a Mailgun-named variable', ['mailgun'], ['hexdash', 32, 50], {
    pos: [P('MAILGUN_WEBHOOK_SIGNING_KEY=', F(C.hex, 32) + '-' + F(C.hex, 8) + '-' + F(C.hex, 8))],
    neg: ['MAILGUN_DOMAIN=mg.example.org'],
  }, { entropy: 3.0 }),
  {
    id: 'mailchimp-api-key',
    description: 'Mailchimp API key (32 hex + -usN)',
    confidence: 'high',
    keywords: ['-us'],
    back: ['hex', 32, 32],
    before: 'hexi',
    steps: [['digit', 1, 2]],
    after: 'alnum',
    entropy: 3.0,
    examples: {
      pos: [P('MAILCHIMP_API_KEY=', F(C.hex, 32) + '-us' + F(C.digit, 2))],
      neg: ['en-us1', F(C.hex, 16) + '-us1'],
    },
  },
  prefixed('sendinblue-api-key', 'Brevo (Sendinblue) API key (xkeysib-)', 'xkeysib-', [['hex', 64], '-', ['alnum', 16]], {
    pos: [P('BREVO_API_KEY=', 'xkeysib-' + F(C.hex, 64) + '-' + F(C.alnum, 16))],
    neg: ['xkeysib-' + F(C.hex, 20)],
  }),
  // A server-side SDK key must stay secret (LaunchDarkly's docs); mobile keys (mob-) and
  // client-side IDs are meant to ship in apps and are left alone.
  prefixed('launchdarkly-sdk-key', 'LaunchDarkly server-side SDK key (sdk-…)', 'sdk-', [['hex', 8], '-', ['hex', 4], '-', ['hex', 4], '-', ['hex', 4], '-', ['hex', 12]], {
    pos: [P('LAUNCHDARKLY_SDK_KEY=', 'sdk-' + uuid()), P('const client = LaunchDarkly.init("', 'sdk-' + uuid(), '");')],
    neg: ['npm i @aws-sdk/client-s3 aws-sdk-js', 'sdk-' + F(C.hex, 8) + '-build', 'mob-' + uuid()],
  }),
  prefixed('hubspot-private-app-token', 'HubSpot private app token (pat-na1-/pat-eu1-)', ['pat-na1-', 'pat-eu1-'], [['uuid', 36]], {
    pos: [P('HUBSPOT_TOKEN=', 'pat-na1-' + F(C.hex, 8) + '-' + F(C.hex, 4) + '-' + F(C.hex, 4) + '-' + F(C.hex, 4) + '-' + F(C.hex, 12))],
    neg: ['pat-na1-' + F(C.hex, 8)],
  }),
  prefixed('mapbox-secret-token', 'Mapbox secret access token (sk.eyJ…)', 'sk.eyJ', [['dotted', 80, 400]], {
    pos: [P('MAPBOX_SECRET=', 'sk.eyJ' + F(C.b64url, 60) + '.' + F(C.b64url, 22))],
    neg: ['sk.eyJ' + F(C.b64url, 20)],
  }, { entropy: 3.5 }),
  prefixed('dropbox-access-token', 'Dropbox short-lived access token (sl.…)', 'sl.', [['b64url', 130, 1400]], {
    pos: [P('DROPBOX_TOKEN=', 'sl.' + F(C.b64url, 140))],
    neg: ['sl.' + F(C.b64url, 40), 'label.' + F(C.b64url, 140)],
  }, { entropy: 4.0 }),
  prefixed('adafruit-io-key', 'Adafruit IO key (aio_)', 'aio_', [['alnum', 28]], {
    pos: [P('ADAFRUIT_IO_KEY=', 'aio_' + F(C.alnum, 28))],
    neg: ['aio_' + F(C.alnum, 10)],
  }),
  prefixed('intra42-client-secret', '42 intra client secret (s-s4t2ud-/s-s4t2af-)', ['s-s4t2ud-', 's-s4t2af-'], [['hex', 64]], {
    pos: [P('FT_SECRET=', 's-s4t2ud-' + F(C.hex, 64))],
    neg: ['s-s4t2ud-' + F(C.hex, 20)],
  }),
  // Firebase Cloud Messaging legacy server key: AAAA + 7 characters, then :APA91b and the rest.
  {
    id: 'fcm-server-key',
    description: 'Firebase Cloud Messaging legacy server key (AAAA…:APA91b…)',
    confidence: 'high',
    keywords: [':APA91b'],
    back: ['b64url', 11, 11],
    before: 'b64url',
    steps: [['b64url', 120, 160]],
    entropy: 3.5,
    examples: {
      pos: [P('FCM_SERVER_KEY=', 'AAAA' + F(C.b64url, 7) + ':APA91b' + F(C.b64url, 134))],
      neg: ['AAAA' + F(C.b64url, 7) + ':APA91b' + F(C.b64url, 30), ':APA91b' + F(C.b64url, 134)],
    },
  },
  // Notion's internal integration secrets before ntn_: secret_ and 43 letters and digits.
  prefixed('notion-legacy-token', 'Notion integration secret (legacy secret_)', 'secret_', [['alnum', 43]], {
    pos: [P('NOTION_TOKEN=', 'secret_' + F(C.alnum, 43))],
    neg: ['client_secret_' + F(C.alnum, 43), 'secret_key_base', 'secret_' + F(C.alpha, 20)],
  }, { entropy: 4.0, before: 'word' }),
];
