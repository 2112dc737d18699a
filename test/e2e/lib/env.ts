// The environment for processes the rig starts (setup.sh, code-server and its extension hosts).
// Started through npm (npm test, npm run test:e2e…), this process carries the calling npm's
// environment: npm_config_* (among them the user agent naming this Node, the prefix, nodedir),
// npm_lifecycle_*, npm_package_*, INIT_CWD, NODE, and node_modules/.bin folders on PATH; tsx
// may sit in NODE_OPTIONS. A nested npm install under another Node reads them as its own
// (code-server's postinstall refuses "node v20" from npm_config_user_agent), and the extension
// host under test would see the repo's settings. So none of it goes further.

const NPM_VARIABLE = /^(npm_.*|init_cwd|node|node_options|color)$/i;
const NPM_PATH_ENTRY = /[\\/]node_modules[\\/]\.bin[\\/]?$|[\\/]node-gyp-bin[\\/]?$/;

/** `env` without what npm (or tsx) put there for the current script. */
export function isolatedEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (!NPM_VARIABLE.test(name)) out[name] = value;
  }
  if (out.PATH)
    out.PATH = out.PATH.split(':')
      .filter((entry) => entry && !NPM_PATH_ENTRY.test(entry))
      .join(':');
  return out;
}
