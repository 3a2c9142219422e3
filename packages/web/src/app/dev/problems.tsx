import { useId, type ReactNode } from 'react';
import { AviaryApiError, failureText } from '../../api/client';
import { FormError } from '../FormError';

/**
 * A refusal of the API placed next to the field it is about: the methods name the offending
 * `parameter` (`listenerUrl`, `integrations.slashCommands[0].action.url`, `allowedOrigins[1]`…), and the
 * field shown for it is the longest rendered path that is that parameter or contains it. A refusal no
 * field claims is shown above the form.
 */
export interface Problem {
  parameter?: string;
  message: string;
}

export function problemOf(error: unknown): Problem {
  const parameter = error instanceof AviaryApiError ? error.parameter : undefined;
  return { message: failureText(error), ...(parameter !== undefined ? { parameter } : {}) };
}

const contains = (path: string, parameter: string) => parameter === path || parameter.startsWith(`${path}.`) || parameter.startsWith(`${path}[`);

/** The rendered path that shows the problem, or undefined: then the form shows it above its fields. */
export function placeOf(problem: Problem | undefined, paths: readonly string[]): string | undefined {
  const parameter = problem?.parameter;
  if (parameter === undefined) return undefined;
  return paths.filter((path) => contains(path, parameter)).sort((a, b) => b.length - a.length)[0];
}

export function FormProblem({ problem, paths }: { problem: Problem | undefined; paths: readonly string[] }) {
  if (!problem || placeOf(problem, paths) !== undefined) return null;
  return <FormError text={problem.message} />;
}

interface FieldProps {
  label: string;
  /** The parameter path this field edits. */
  path: string;
  /** The path that shows the current problem (`placeOf`). */
  problemAt: string | undefined;
  problem: Problem | undefined;
  hint?: string;
  children: (input: { id: string; 'aria-invalid': boolean; 'aria-describedby'?: string }) => ReactNode;
}

/** A labelled field with its hint and, when the API refused this very field, the refusal right under it. */
export function Field({ label, path, problemAt, problem, hint, children }: FieldProps) {
  const id = useId();
  const wrong = problem !== undefined && problemAt === path;
  const describedBy = [hint ? `${id}-hint` : '', wrong ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div className={`dev-field${wrong ? ' invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {children({ id, 'aria-invalid': wrong, ...(describedBy ? { 'aria-describedby': describedBy } : {}) })}
      {hint && (
        <p className="dev-hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {wrong && (
        <p className="field-error" id={`${id}-error`} role="alert">
          {problem.message}
        </p>
      )}
    </div>
  );
}
