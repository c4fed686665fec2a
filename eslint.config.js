import reactHooks from 'eslint-plugin-react-hooks'
import tseslint from 'typescript-eslint'

/**
 * The web app held to React's hooks rules: hooks called unconditionally, effects naming everything
 * they read. The server is left to the type checker: it has no hooks, and its style is the code's own.
 */
export default tseslint.config(
  { ignores: ['web/src/api/schema.d.ts'] },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    languageOptions: { parser: tseslint.parser },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    extends: [reactHooks.configs.flat.recommended],
    rules: {
      // The app's own hooks that take a dependency list are checked like useEffect at every call.
      'react-hooks/exhaustive-deps': ['error', { additionalHooks: '^(useLoad|usePolled)$' }],
    },
  },
)
