/**
 * Prints an ID token for a user, signed with the running configuration's key:
 *   npm run token -- <email> [--role admin|faculty|staff|student|user] [--link]
 * The token is the last line of output; with --link, a one-time sign-in link for the web app instead
 * (`{FRONTEND_URL}/auth/saml-callback?token=...`, valid 15 minutes, docs/auth.md, "Getting one"). With
 * --role, the user gets that role when the token is first used (the server creates the user then if needed);
 * this script never writes to the store, so it is safe to run while the server owns the data directory.
 */
import { signInLink } from '../src/auth/custom-token.js'
import { signingKeys } from '../src/auth/keys.js'
import { roles, type Role } from '../src/auth/permissions.js'
import { signIdToken, userIdForEmail } from '../src/auth/tokens.js'
import { loadConfig } from '../src/config.js'

function fail(message: string): never {
  console.error(message)
  console.error('usage: npm run token -- <email> [--role admin|faculty|staff|student|user] [--link]')
  process.exit(2)
}

const args = process.argv.slice(2)
const roleAt = args.indexOf('--role')
const role = roleAt >= 0 ? args[roleAt + 1] : undefined
const email = args.find((arg, i) => !arg.startsWith('--') && i !== roleAt + 1 || (roleAt < 0 && !arg.startsWith('--')))
if (!email || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) fail('an email address is required')
if (roleAt >= 0 && !(roles as readonly string[]).includes(role ?? '')) fail(`--role must be one of: ${roles.join(', ')}`)

const config = loadConfig()
const keys = await signingKeys(config)
const user = { sub: userIdForEmail(email), email: email.toLowerCase(), ...(role ? { role_grant: role as Role } : {}) }
if (args.includes('--link')) {
  console.error(`Sign-in link for ${email}${role ? ` (role ${role})` : ''}: it works once, within 15 minutes`)
  console.log(signInLink(keys, config, user))
  process.exit(0)
}
const token = signIdToken(keys, config, user)
console.error(`ID token for ${email}${role ? ` (role ${role})` : ''}, valid ${config.jwt.ttlSeconds} s; send it as Authorization: Bearer <token>`)
console.log(token)
