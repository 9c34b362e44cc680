import type { CodegenConfig } from '@graphql-codegen/cli'

// The schema is the server's own SDL, so `npm run check` fails as soon as an
// operation in src/ stops matching it.
const config: CodegenConfig = {
  schema: '../../graph/*.graphqls',
  documents: ['src/**/*.{ts,vue}', '!src/gql/**/*'],
  ignoreNoDocuments: false,
  generates: {
    './src/gql/': {
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
  },
}
export default config
