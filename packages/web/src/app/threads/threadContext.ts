import { createContext, useContext } from 'react';

/** Opens a message's thread in the thread panel (ConversationView provides it; undefined where threads cannot open). */
export const OpenThreadContext = createContext<((uid: string) => void) | undefined>(undefined);

export const useOpenThread = () => useContext(OpenThreadContext);
