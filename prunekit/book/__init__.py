"""The book layer: what only the chapters and exercises of the book use — chapter figures,
exercise checks, the experiment and study runners, Weka and rpart interop. It imports the core;
the core never imports it."""
