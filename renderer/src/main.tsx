import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.js';
import { createConsoleServices } from './app/services.js';
import { applyTheme, readThemeChoice } from './app/use-color-scheme.js';
import './styles/base.css';
import './styles/layout.css';
import './styles/pages.css';

// Before the first paint: no flash of the other theme.
applyTheme(readThemeChoice());

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element.');
createRoot(root).render(
  <StrictMode>
    <App services={createConsoleServices(window)} />
  </StrictMode>,
);
