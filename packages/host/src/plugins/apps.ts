/**
 * A kind whose content is a small web app (`web.app`): the host serves each revision live at
 * `/apps/:id/` (the newest) and `/apps/:id/r/:revision/`, so people and agents open the same app.
 * The host answers with a sandboxing Content-Security-Policy, so an app's scripts run in an opaque
 * origin and cannot call the host's API with the viewer's session.
 */
export interface AppServing<Content> {
  /**
   * The file at `path`: no leading slash, URL-decoded, never containing `..` segments; a request for
   * a directory (or the app's root) asks for its `index.html`. Undefined answers 404.
   */
  file(content: Content, path: string): AppFile | undefined;
}

export interface AppFile {
  readonly data: Uint8Array | string;
  readonly mediaType: string;
}
