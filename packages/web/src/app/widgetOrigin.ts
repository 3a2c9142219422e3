/** Where a widget was opened from: the server needs it to route the widget's own calls back to its app. */
export interface WidgetOrigin {
  appId?: string | undefined;
  chat?: string | undefined;
  messageUid?: string | undefined;
  attachmentId?: string | undefined;
}
