import { createContext } from 'react';

/** Opens the image viewer at a file of the open chat; null where no chat offers one (the file opens in a tab). */
export const OpenImageContext = createContext<((fileId: string) => void) | null>(null);
