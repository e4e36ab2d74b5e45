// Stylesheets are bundled by esbuild: importing one adds it to the built CSS file.
declare module '*.css';
