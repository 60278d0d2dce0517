// The conformance suite's client command: the host's own MCP connection (from the build) against
// the suite's test server, whose URL is the last argument. Connects, lists the tools, calls each
// one with simple arguments (elicitations are accepted: the SDK fills the schema's defaults), closes.
const { McpConnection } = require('../../dist/mcp-client/connection.js');

async function main() {
  const url = process.argv[process.argv.length - 1];
  const connection = new McpConnection('conformance', { url, timeoutMs: 20_000 }, {
    onElicit: async () => ({ action: 'accept', content: {} }),
  });
  await connection.connect();
  for (const tool of connection.tools) {
    const args = {};
    for (const [name, schema] of Object.entries(tool.inputSchema.properties ?? {})) {
      args[name] = schema.type === 'number' || schema.type === 'integer' ? 1 : schema.type === 'boolean' ? true : 'x';
    }
    const result = await connection.callTool(tool.name, args);
    process.stdout.write(`${tool.name}: ${JSON.stringify(result.content)}\n`);
  }
  await connection.close();
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`${error?.stack ?? error}\n`);
    process.exit(1);
  },
);
