// The soni extension for VS Code: a thin client that starts `soni lsp` and
// sends it the project's YAML files. Everything it shows (diagnostics,
// completion, hovers, definitions, references, rename, quick fixes,
// symbols, formatting) comes from the language server.
import * as vscode from "vscode";
import {
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  TransportKind,
} from "vscode-languageclient/node";

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const config = vscode.workspace.getConfiguration("soni");
  const command = config.get<string>("path", "soni");
  const args = ["lsp"];
  const maxFileSize = config.get<number>("maxFileSize", 0);
  if (maxFileSize > 0) {
    args.push("--max-file-size", String(maxFileSize));
  }
  const serverOptions: ServerOptions = {
    command,
    args,
    transport: TransportKind.stdio,
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: "file", language: "yaml" },
      { scheme: "file", pattern: "**/*.{yaml,yml}" },
    ],
    synchronize: {
      // A file added, changed or removed on disk may change a project.
      fileEvents: vscode.workspace.createFileSystemWatcher("**/*.{yaml,yml}"),
    },
  };
  client = new LanguageClient("soni", "soni", serverOptions, clientOptions);
  context.subscriptions.push(
    vscode.commands.registerCommand("soni.restart", async () => {
      await client?.restart();
    }),
  );
  await client.start();
}

export async function deactivate(): Promise<void> {
  await client?.stop();
}
