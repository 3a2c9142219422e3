/** A refusal or failure shown above a form or a list, announced to screen readers; nothing when there is none. */
export function FormError({ text }: { text: string | undefined }) {
  if (!text) return null;
  return (
    <p className="form-error" role="alert">
      {text}
    </p>
  );
}
