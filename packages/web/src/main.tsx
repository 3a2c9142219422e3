import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { LoadedPart } from './app/LoadedPart';
import './styles.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <LoadedPart>
      <App />
    </LoadedPart>
  </StrictMode>,
);
