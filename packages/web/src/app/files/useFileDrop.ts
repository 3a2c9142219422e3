import { useRef, useState, type DragEvent } from 'react';

/**
 * Files dragged onto an element: `dragging` while files are over it (what is dragged is files, not text
 * or a link), and `onFiles` with them when they are dropped.
 */
export function useFileDrop(onFiles: (files: File[]) => void, enabled = true) {
  const [dragging, setDragging] = useState(false);
  // dragenter and dragleave fire for every child crossed: count them to know when the element is left.
  const depth = useRef(0);
  const carriesFiles = (event: DragEvent) => enabled && event.dataTransfer.types.includes('Files');
  return {
    dragging,
    handlers: {
      onDragEnter: (event: DragEvent) => {
        if (!carriesFiles(event)) return;
        event.preventDefault();
        depth.current++;
        setDragging(true);
      },
      onDragOver: (event: DragEvent) => {
        if (!carriesFiles(event)) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = 'copy';
      },
      onDragLeave: (event: DragEvent) => {
        if (!carriesFiles(event)) return;
        depth.current = Math.max(0, depth.current - 1);
        if (depth.current === 0) setDragging(false);
      },
      onDrop: (event: DragEvent) => {
        if (!carriesFiles(event)) return;
        event.preventDefault();
        depth.current = 0;
        setDragging(false);
        const files = [...event.dataTransfer.files];
        if (files.length > 0) onFiles(files);
      },
    },
  };
}
