import { B64, B64URL, fake, HEX, LETTERS, P } from "./fake.ts";
import type { LeakRule } from "./types.ts";

/**
 * Tokens by their documented shapes (the vendor list follows what gitleaks covers; the patterns are
 * written here from the vendors' formats). A token may sit right after `_` or a letter-free separator
 * (`MY_TOKEN_npm_…`) and be followed by `_` (`…_suffix`) where its own alphabet has no `_`; a letter or
 * digit right before a short prefix (`XAIza…`) is another word, not a token.
 */
export const VENDOR_RULES: LeakRule[] = [
  {
    id: "google-api-key",
    kind: "credential",
    description: "Google API key (AIza + 35 characters): Maps, Firebase, Gemini, YouTube, ...",
    pattern: /(?<![A-Za-z0-9])AIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9])/g,
    examples: { flag: () => [P("key=", "AI", "za", fake(35, B64URL, 201)), P("GOOGLE_KEY_", "AI", "za", fake(35, B64URL, 202))], pass: ["AIzaXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX", "AIza_short", "xAIzaSyB1234"] },
  },
  {
    id: "gcp-service-account-key",
    kind: "credential",
    description: "the private_key of a Google Cloud service-account JSON file",
    pattern: /"private_key"\s*:\s*"(-----BEGIN [A-Z ]*PRIVATE KEY-----[^"]{40,})"/g,
    group: 1,
    examples: {
      flag: () => [P('{"type": "service_account", "private_key_id": "', fake(40, HEX, 211), '", "private_key": "-----BEGIN ', "PRIVATE KEY-----\\n", fake(64, B64, 212), "\\n-----END ", 'PRIVATE KEY-----\\n"}')],
      pass: ['"private_key": ""', '"private_key": "-----BEGIN PRIVATE KEY-----\\n...\\n-----END PRIVATE KEY-----"'],
    },
  },
  {
    id: "npm-token",
    kind: "credential",
    description: "npm access token (npm_ + 36 characters)",
    pattern: /(?<![A-Za-z0-9])npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])/g,
    examples: { flag: () => [P("//registry/:_authToken=", "np", "m_", fake(36, undefined, 221)), P("MY_TOKEN_", "np", "m_", fake(36, undefined, 222), "_old")], pass: ["npm_config_cache", "npm_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX", "pnpm_store"] },
  },
  {
    id: "pypi-upload-token",
    kind: "credential",
    description: "PyPI API token (pypi- + a macaroon for pypi.org)",
    pattern: /(?<![A-Za-z0-9])pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}/g,
    examples: { flag: () => [P("password = ", "py", "pi-", "AgEIcHlwaS5vcmc", fake(80, B64URL, 231))], pass: ["pypi-AgEIcHlwaS5vcmc...", "pypi-token"] },
  },
  {
    id: "dockerhub-token",
    kind: "credential",
    description: "Docker Hub personal or organization access token (dckr_pat_ / dckr_oat_)",
    pattern: /(?<![A-Za-z0-9])dckr_(?:pat|oat)_[A-Za-z0-9_-]{27,}/g,
    examples: { flag: () => [P("docker login -p ", "dckr", "_pat_", fake(27, B64URL, 241))], pass: ["dckr_pat_...", "dckr_pat_short"] },
  },
  {
    id: "huggingface-token",
    kind: "credential",
    description: "Hugging Face user or organization access token (hf_ / api_org_ + 34 letters)",
    pattern: /(?<![A-Za-z0-9])(?:hf_|api_org_)[A-Za-z]{34}(?![A-Za-z0-9])/g,
    examples: { flag: () => [P("HF_TOKEN=", "h", "f_", fake(34, LETTERS, 251)), P("api", "_org_", fake(34, LETTERS, 252))], pass: ["hf_hub_download", "hf_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX"] },
  },
  {
    id: "shopify-token",
    kind: "credential",
    description: "Shopify access, custom-app, private-app token or shared secret (shpat_/shpca_/shppa_/shpss_ + 32 hex)",
    pattern: /(?<![A-Za-z0-9])shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}(?![A-Za-z0-9])/g,
    examples: { flag: () => [P("sh", "pat_", fake(32, HEX, 261)), P("X-Shopify-Access-Token: ", "sh", "pss_", fake(32, HEX, 262))], pass: ["shpat_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", "shpat_123"] },
  },
  {
    id: "sendgrid-api-key",
    kind: "credential",
    description: "SendGrid API key (SG.<22>.<43>)",
    pattern: /(?<![A-Za-z0-9])SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}(?![A-Za-z0-9])/g,
    examples: { flag: () => [P("S", "G.", fake(22, B64URL, 271), ".", fake(43, B64URL, 272))], pass: ["SG.xxxxxxxxxxxxxxxxxxxxxx.yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy", "SG.short.key"] },
  },
  {
    id: "twilio-api-key",
    kind: "credential",
    description: "Twilio API key SID (SK + 32 hex); its secret is useless without it",
    pattern: /(?<![A-Za-z0-9])SK[0-9a-f]{32}(?![A-Za-z0-9])/g,
    examples: { flag: () => [P("TWILIO_API_KEY=", "S", "K", fake(32, HEX, 281))], pass: ["SKIP_TESTS=1", "SK00000000000000000000000000000000"] },
  },
  {
    id: "azure-ad-client-secret",
    kind: "credential",
    description: "Microsoft Entra ID (Azure AD) client secret (…<digit>Q~…, 40 characters)",
    pattern: /(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.]{3}[0-9]Q~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])/g,
    examples: { flag: () => [P("AZURE_CLIENT_SECRET=", fake(3, undefined, 291), "8", "Q~", fake(34, undefined, 292))], pass: ["abc8Q~short", "path/to/8Q~file"] },
  },
  {
    id: "azure-storage-key",
    kind: "credential",
    description: "Azure Storage account key inside a connection string (AccountKey=…==)",
    pattern: /\bAccountKey=([A-Za-z0-9+/]{86}==)/g,
    group: 1,
    examples: { flag: () => [P("DefaultEndpointsProtocol=https;AccountName=app;", "Account", "Key=", fake(86, B64, 301), "==;EndpointSuffix=core.windows.net")], pass: ["AccountKey=<key>", "AccountKey=...=="] },
  },
  {
    id: "datadog-key",
    kind: "credential",
    description: "Datadog API key (32 hex) or application key (40 hex) next to its name",
    pattern: /(?:datadog|\bdd)[_-]?(?:api|app(?:lication)?)[_-]?key["']?\s*[:=]\s*["']?([a-f0-9]{40}|[a-f0-9]{32})(?![A-Za-z0-9])/gi,
    group: 1,
    examples: { flag: () => [P("DD_API", "_KEY=", fake(32, HEX, 311)), P("datadog_app", "_key: ", fake(40, HEX, 312))], pass: ["DD_API_KEY=${DD_API_KEY}", "dd_api_key: <key>"] },
  },
  {
    id: "digitalocean-token",
    kind: "credential",
    description: "DigitalOcean personal access, OAuth or refresh token (dop_v1_ / doo_v1_ / dor_v1_ + 64 hex)",
    pattern: /(?<![A-Za-z0-9])do[opr]_v1_[a-f0-9]{64}(?![A-Za-z0-9])/g,
    examples: { flag: () => [P("do", "p_v1_", fake(64, HEX, 321))], pass: ["dop_v1_abc", "dop_v1_..."] },
  },
  {
    id: "linear-api-key",
    kind: "credential",
    description: "Linear API key (lin_api_ + 40 characters)",
    pattern: /(?<![A-Za-z0-9])lin_api_[A-Za-z0-9]{40}(?![A-Za-z0-9])/g,
    examples: { flag: () => [P("li", "n_api_", fake(40, undefined, 331))], pass: ["lin_api_key", "lin_api_..."] },
  },
  {
    id: "discord-webhook",
    kind: "credential",
    description: "Discord webhook URL (anyone holding it can post)",
    pattern: /https:\/\/(?:ptb\.|canary\.)?discord(?:app)?\.com\/api\/webhooks\/[0-9]{17,20}\/[A-Za-z0-9_-]{60,}/g,
    examples: { flag: () => [P("https://", "discord.com/api/", "webhooks/", fake(18, "0123456789", 341), "/", fake(68, B64URL, 342))], pass: ["https://discord.com/api/webhooks/123/abc", "https://discord.com/developers"] },
  },
  {
    id: "telegram-bot-token",
    kind: "credential",
    description: "Telegram bot token (<bot id>:AA + 33 characters; also inside api.telegram.org/bot<token>)",
    pattern: /(?<![0-9])[0-9]{8,10}:AA[A-Za-z0-9_-]{33}(?![A-Za-z0-9_-])/g,
    examples: { flag: () => [P("bot", fake(10, "0123456789", 351), ":", "AA", fake(33, B64URL, 352))], pass: ["12:30:AA", "123456789:AAshort"] },
  },
  {
    id: "age-secret-key",
    kind: "credential",
    description: "age encryption secret key",
    pattern: /AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}/g,
    examples: { flag: () => [P("AGE-", "SECRET-KEY-", "1", fake(58, "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 361))], pass: ["AGE-SECRET-KEY-1...", "age1publickey"] },
  },
  {
    id: "hashicorp-vault-token",
    kind: "credential",
    description: "HashiCorp Vault service or batch token (hvs. / hvb. + 90 or more characters)",
    pattern: /(?<![A-Za-z0-9])hv[sb]\.[A-Za-z0-9_-]{90,}/g,
    examples: { flag: () => [P("VAULT_TOKEN=", "hv", "s.", fake(95, B64URL, 371))], pass: ["hvs.short", "hvs...."] },
  },
  {
    id: "databricks-token",
    kind: "credential",
    description: "Databricks personal access token (dapi + 32 hex)",
    pattern: /(?<![A-Za-z0-9])dapi[a-f0-9]{32}(?:-[0-9])?(?![A-Za-z0-9])/g,
    examples: { flag: () => [P("da", "pi", fake(32, HEX, 381))], pass: ["dapi_version", "dapi00000000000000000000000000000000"] },
  },
  {
    id: "grafana-token",
    kind: "credential",
    description: "Grafana service-account token (glsa_…_<8 hex>) or Grafana Cloud token (glc_)",
    pattern: /(?<![A-Za-z0-9])(?:glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|glc_[A-Za-z0-9+/]{32,}={0,2})(?![A-Za-z0-9])/g,
    examples: { flag: () => [P("gl", "sa_", fake(32, undefined, 391), "_", fake(8, HEX, 392)), P("gl", "c_", fake(60, undefined, 393))], pass: ["glsa_short", "glc_..."] },
  },
  {
    id: "postman-api-key",
    kind: "credential",
    description: "Postman API key (PMAK-<24 hex>-<34 hex>)",
    pattern: /(?<![A-Za-z0-9])PMAK-[a-f0-9]{24}-[a-f0-9]{34}(?![A-Za-z0-9])/g,
    examples: { flag: () => [P("PM", "AK-", fake(24, HEX, 401), "-", fake(34, HEX, 402))], pass: ["PMAK-abc-def", "PMAK-..."] },
  },
  {
    id: "groq-api-key",
    kind: "credential",
    description: "Groq API key (gsk_ + 52 characters)",
    pattern: /(?<![A-Za-z0-9])gsk_[A-Za-z0-9]{52}(?![A-Za-z0-9])/g,
    examples: { flag: () => [P("gs", "k_", fake(52, undefined, 411))], pass: ["gsk_short", "gsk_..."] },
  },
  {
    id: "stripe-webhook-secret",
    kind: "credential",
    description: "Stripe webhook signing secret (whsec_ + 32 or more characters)",
    pattern: /(?<![A-Za-z0-9])whsec_[A-Za-z0-9]{32,}(?![A-Za-z0-9])/g,
    examples: { flag: () => [P("wh", "sec_", fake(32, undefined, 421))], pass: ["whsec_...", "whsec_short"] },
  },
];
