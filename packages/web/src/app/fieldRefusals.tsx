import { useId, useState } from 'react';
import { AviaryApiError, failureText } from '../api/client';

/**
 * A form's refusal by the API, shown where it belongs: under the field whose `parameter` it names (one of
 * `fields`), tied to it for screen readers; any other above the form's buttons. The text is the server's.
 */
export function useFieldRefusals<F extends string>(fields: readonly F[]) {
  const [problem, setProblem] = useState<{ field?: F; text: string }>();
  const id = useId();
  return {
    id,
    clear: () => setProblem(undefined),
    refuse(failure: unknown) {
      const parameter = failure instanceof AviaryApiError ? failure.parameter : undefined;
      const field = fields.find((candidate) => candidate === parameter);
      setProblem({ text: failureText(failure), ...(field !== undefined ? { field } : {}) });
    },
    /** The attributes that tie a field to the refusal shown under it. */
    invalid: (field: F) => (problem?.field === field ? { 'aria-invalid': true, 'aria-describedby': `${id}-${field}` } : {}),
    /** The refusal of `field`, to go right under it. */
    refusal: (field: F) =>
      problem?.field === field && (
        <span className="field-error" id={`${id}-${field}`} role="alert">
          {problem.text}
        </span>
      ),
    /** A refusal no field claims. */
    formRefusal: problem && problem.field === undefined && (
      <p className="form-error" role="alert">
        {problem.text}
      </p>
    ),
  };
}
