import type { CodegenConfig } from '@graphql-codegen/cli'

// The schema is the server's own SDL, so `npm run check` fails as soon as an
// operation in src/ stops matching it.
const config: CodegenConfig = {
  generates: {
    './src/gql/': {
      schema: '../../graph/*.graphqls',
      documents: ['src/**/*.{ts,vue}', '!src/gql/**/*'],
      preset: 'client',
      presetConfig: { fragmentMasking: false },
      config: {
        useTypeImports: true,
        enumsAsTypes: true,
        scalars: { ID: 'string', Time: 'string', Upload: 'File' },
        strictScalars: true,
        skipTypename: false,
      },
    },
    // ErrorCode: every code an error's extensions.code can carry (enum
    // ErrorCode of graph/errors.graphqls, from internal/apperr). No field
    // returns it, so the client preset above, which emits only the types the
    // operations use, leaves it out; this emits it alone, as the same kind of
    // string union. A code the server drops then fails `npm run check`
    // wherever the app still names it.
    './src/gql/errorCode.ts': {
      schema: '../../graph/errors.graphqls',
      plugins: ['typescript'],
      config: { onlyEnums: true, enumsAsTypes: true },
    },
  },
  ignoreNoDocuments: false,
}
export default config
