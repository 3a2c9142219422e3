import { useCallback, useEffect, useState } from 'react';
import { failureText } from '../api/client';
import { useWorkspace } from './workspaceContext';

/**
 * What every list of the admin console shares: it loads its items, and each action runs, toasts what it
 * did, and loads the list again (a refusal shows above the list, as the server words it). `fetchItems`
 * must keep its identity across renders (a module-level function, or useCallback).
 */
export function useAdminList<T>(fetchItems: () => Promise<T[]>) {
  const workspace = useWorkspace();
  const [items, setItems] = useState<T[]>();
  const [problem, setProblem] = useState<string>();

  const load = useCallback(async () => {
    try {
      setItems(await fetchItems());
    } catch (failure) {
      setProblem(failureText(failure));
    }
  }, [fetchItems]);
  useEffect(() => void load(), [load]);

  const act = async (work: () => Promise<unknown>, done: string) => {
    setProblem(undefined);
    try {
      await work();
      workspace.toast(done);
    } catch (failure) {
      setProblem(failureText(failure));
    }
    await load();
  };
  return { items, problem, act, load };
}

/** The refusal of a list's last action, if any. */
export function AdminProblem({ problem }: { problem: string | undefined }) {
  return problem ? (
    <p className="form-error" role="alert">
      {problem}
    </p>
  ) : null;
}
